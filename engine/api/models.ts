import type { FastifyInstance } from 'fastify';
import { authenticateChat, CHAT_MODEL, sendChatError } from './chat.js';
import type { AppContext } from './context.js';

/** GET /v1/models and /v1/models/:model in OpenAI's shapes; the one model is `fin-chat`. */
const MODEL = { id: CHAT_MODEL, object: 'model', created: 1767225600, owned_by: 'docai' } as const;

export function registerModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/models', async (req, reply) => {
    try {
      authenticateChat(ctx, req);
    } catch (err) {
      return sendChatError(reply, err);
    }
    return reply.send({ object: 'list', data: [MODEL] });
  });
  app.get<{ Params: { model: string } }>('/v1/models/:model', async (req, reply) => {
    try {
      authenticateChat(ctx, req);
    } catch (err) {
      return sendChatError(reply, err);
    }
    if (req.params.model !== CHAT_MODEL) {
      return reply.code(404).send({ error: { message: `The model '${req.params.model}' does not exist`, type: 'invalid_request_error', code: 'model_not_found', param: 'model' } });
    }
    return reply.send(MODEL);
  });
}

/** An API failure in words: the spec's err_code (document endpoints) or error.code (chat), plus the server's message. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Reads either error body shape: `{success:false, err_code, err_message}` or `{error:{message, type, code}}`. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  const b = (body ?? {}) as { err_code?: string; err_message?: string; error?: { message?: string; code?: string; type?: string } };
  if (b.err_code) return new ApiError(b.err_code, b.err_message ?? '', res.status);
  if (b.error) return new ApiError(b.error.code ?? b.error.type ?? `HTTP_${res.status}`, b.error.message ?? '', res.status);
  return new ApiError(`HTTP_${res.status}`, res.statusText, res.status);
}

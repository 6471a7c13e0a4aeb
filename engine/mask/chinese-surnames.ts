/**
 * Chinese surnames used to recognise a personal name next to a cue word (患者张三, 王建国主任医师).
 * The common single-character surnames (they cover well over 90% of the population) and the
 * compound ones. Characters that are far more often ordinary words next to cue words in medical
 * text (主, 上, 经, 住, 值, 责, 该, 本) are left out on purpose.
 */
const SINGLE =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝官封谈匡鞠惠荆乐冀郁胥南班储原栗燕楚鄢劳谌奚皮粟冼蔺楼盘满闻位厉伊仝区郜海阚花权强帅屠豆朴盖练廉禹井祖漆巴丰支卿国狄平计索宣晋相初门云容敬来扈晁芮都普阙浦戈伏鹿薄邸雍辜羊阿乌母裘亓修邰赫杭况那宿鲜印逯隆茹诸战慕危玉银亢嵇公哈湛宾戎勾茅利於呼居揭干但尉冶斯元束檀衣信展阴昝智幸奉植衡富尧闭由凤';

const COMPOUND = [
  '欧阳', '司马', '诸葛', '上官', '东方', '皇甫', '尉迟', '公孙', '慕容', '令狐', '宇文', '长孙', '司徒', '夏侯',
  '端木', '独孤', '南宫', '西门', '呼延', '轩辕', '澹台', '万俟', '闻人', '赫连', '申屠', '太史', '钟离', '宗政',
  '濮阳', '淳于', '单于', '公冶', '仲孙', '百里', '东郭', '鲜于', '拓跋', '司空', '第五', '左丘', '谷梁', '梁丘',
];

const singles = new Set(Array.from(SINGLE));

/** Length of the surname at the start of s (0 when s does not start with a known surname). */
export function surnameLength(s: string): number {
  for (const c of COMPOUND) if (s.startsWith(c)) return 2;
  const first = Array.from(s)[0];
  return first !== undefined && singles.has(first) ? 1 : 0;
}

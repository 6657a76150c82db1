/** How one language negates a prose match ("no compartas …", "共有しないで"). */
export interface Negation {
  /** Matches the text just before the match (it ends at the match). */
  before?: RegExp;
  /** Matches the text just after the match (it starts there). */
  after?: RegExp;
  /** Matches inside the match: the object came first and the negated verb is in it ("密钥都不要提交"). */
  inside?: RegExp;
  /** English table only: matches the sentence before a prose match ("never … cat .env"). */
  sentence?: RegExp;
}

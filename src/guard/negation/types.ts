/** How one language negates a prose match ("no compartas …", "共有しないで"). */
export interface Negation {
  /** Matches the text just before the match (it ends at the match). */
  before?: RegExp;
  /** Matches the text just after the match (it starts there). */
  after?: RegExp;
}

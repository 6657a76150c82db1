/** Which engine a DATABASE_URL names, without loading either engine (pg is loaded only for PostgreSQL). */

/** Whether DATABASE_URL names PostgreSQL. */
export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** How many statements a dashboard page sent to the database, from its Server-Timing header (core/query-tally.ts). */
export function statementsOf(response: { headers: Record<string, unknown> }): string | undefined {
  return /(\d+) quer/.exec(String(response.headers['server-timing']))?.[1];
}

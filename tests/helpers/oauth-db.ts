// The grant id of a client's consent, read from the test database (the dashboard page names it only in its revoke button).
import pg from "pg";

export async function grantIdOf(clientId: string): Promise<string> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query(
      "SELECT id FROM oauth_grants WHERE client_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1",
      [clientId],
    );
    return rows[0].id;
  } finally {
    await db.end();
  }
}

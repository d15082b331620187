import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeysPort } from '../ports.js';
import type { ApiKey, Scope } from '../types.js';
import type { Conn } from './db.js';
import { safeId } from './util.js';

interface KeyRow {
  id: number;
  company_id: number;
  prefix: string;
  key_hash: Buffer;
  scopes: string;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

const PREFIX_LENGTH = 12;
/** Keys sharing a 12-character prefix (72 random bits after `dpk_`): a handful at most. */
const MAX_PREFIX_ROWS = 100;

const hashKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

const toKey = (row: KeyRow): ApiKey => ({
  id: row.id,
  company_id: row.company_id,
  scopes: row.scopes === '' ? [] : (row.scopes.split(',') as Scope[]),
  label: row.label,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
});

/** API keys as in src/store/api-keys.ts: the SHA-256 of the key and its prefix are stored, never the key. */
export class PgApiKeyRepository implements ApiKeysPort {
  constructor(private readonly db: Conn) {}

  async create(input: { company_id: number; scopes: Scope[]; label?: string }, now: string): Promise<{ record: ApiKey; key: string }> {
    const key = `dpk_${randomBytes(32).toString('base64url')}`;
    const row = await this.db.one<KeyRow>(
      `INSERT INTO api_keys (company_id, prefix, key_hash, scopes, label, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [input.company_id, key.slice(0, PREFIX_LENGTH), hashKey(key), input.scopes.join(','), input.label ?? '', now],
    );
    return { record: toKey(row!), key };
  }

  async get(id: number): Promise<ApiKey | undefined> {
    if (!safeId(id)) return undefined;
    const row = await this.db.one<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return row && toKey(row);
  }

  async authenticate(presented: string): Promise<ApiKey | undefined> {
    if (presented.length < PREFIX_LENGTH || presented.length > 256) return undefined;
    const hash = hashKey(presented);
    const rows = await this.db.rows<KeyRow>('SELECT * FROM api_keys WHERE prefix = $1 LIMIT $2', [
      presented.slice(0, PREFIX_LENGTH),
      MAX_PREFIX_ROWS,
    ]);
    let found: KeyRow | undefined;
    for (const row of rows) {
      if (row.key_hash.length === hash.length && timingSafeEqual(row.key_hash, hash)) found = row;
    }
    if (!found || found.revoked_at !== null) return undefined;
    return toKey(found);
  }

  async listForCompany(companyId: number): Promise<ApiKey[]> {
    // bounded by what an administrator creates by hand (admin CLI)
    return (await this.db.rows<KeyRow>('SELECT * FROM api_keys WHERE company_id = $1 ORDER BY id LIMIT 10000', [companyId])).map(toKey);
  }

  async revoke(id: number, now: string): Promise<ApiKey | undefined> {
    if (!safeId(id)) return undefined;
    await this.db.run('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id]);
    return this.get(id);
  }
}

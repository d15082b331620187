import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { prepare, type Db } from './db.js';
import type { ApiKey, Scope } from '../types.js';

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

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

function toKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    company_id: row.company_id,
    scopes: row.scopes === '' ? [] : (row.scopes.split(',') as Scope[]),
    label: row.label,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/**
 * API keys: `dpk_` and 32 random bytes in base64url (256 bits), shown once. The store keeps the
 * SHA-256 of the key (a fast hash is enough for random high-entropy secrets) and a short prefix
 * to find the candidate rows; the hashes are compared with timingSafeEqual.
 */
export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  create(input: { company_id: number; scopes: Scope[]; label?: string }, now: string): { record: ApiKey; key: string } {
    const key = `dpk_${randomBytes(32).toString('base64url')}`;
    const info = prepare(this.db, 
        'INSERT INTO api_keys (company_id, prefix, key_hash, scopes, label, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(input.company_id, key.slice(0, PREFIX_LENGTH), hashKey(key), input.scopes.join(','), input.label ?? '', now);
    return { record: this.get(Number(info.lastInsertRowid))!, key };
  }

  get(id: number): ApiKey | undefined {
    const row = prepare(this.db, 'SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row && toKey(row);
  }

  /** The active (not revoked) key matching the presented secret, or undefined. */
  authenticate(presented: string): ApiKey | undefined {
    if (presented.length < PREFIX_LENGTH || presented.length > 256) return undefined;
    const hash = hashKey(presented);
    const rows = prepare(this.db, 'SELECT * FROM api_keys WHERE prefix = ?')
      .all(presented.slice(0, PREFIX_LENGTH)) as KeyRow[];
    let found: KeyRow | undefined;
    for (const row of rows) {
      if (row.key_hash.length === hash.length && timingSafeEqual(row.key_hash, hash)) found = row;
    }
    if (!found || found.revoked_at !== null) return undefined;
    return toKey(found);
  }

  /** Every key of the company, revoked ones too, by id (never the key itself: only its hash is kept). */
  listForCompany(companyId: number): ApiKey[] {
    return (prepare(this.db, 'SELECT * FROM api_keys WHERE company_id = ? ORDER BY id').all(companyId) as KeyRow[]).map(toKey);
  }

  revoke(id: number, now: string): ApiKey | undefined {
    prepare(this.db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
    return this.get(id);
  }
}

import type { CompaniesPort } from '../ports.js';
import type { Company } from '../types.js';
import type { Conn } from './db.js';
import { safeId } from './util.js';

export class PgCompanyRepository implements CompaniesPort {
  constructor(private readonly db: Conn) {}

  async create(input: { name: string; timezone: string }, now: string): Promise<Company> {
    return (await this.db.one<Company>('INSERT INTO companies (name, timezone, created_at) VALUES ($1, $2, $3) RETURNING *', [
      input.name,
      input.timezone,
      now,
    ]))!;
  }

  async get(id: number): Promise<Company | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<Company>('SELECT * FROM companies WHERE id = $1', [id]);
  }

  async findByName(name: string): Promise<Company | undefined> {
    return this.db.one<Company>('SELECT * FROM companies WHERE name = $1 ORDER BY id LIMIT 1', [name]);
  }
}

import type { CompaniesPort } from '../ports.js';
import type { Company, CompanyChange } from '../types.js';
import type { Conn } from './db.js';
import { safeId } from './util.js';

export class PgCompanyRepository implements CompaniesPort {
  constructor(private readonly db: Conn) {}

  async create(input: { name: string; timezone: string; speed_factor?: number }, now: string): Promise<Company> {
    return (await this.db.one<Company>('INSERT INTO companies (name, timezone, speed_factor, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
      input.name,
      input.timezone,
      input.speed_factor ?? 1,
      now,
    ]))!;
  }

  async get(id: number): Promise<Company | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<Company>('SELECT * FROM companies WHERE id = $1', [id]);
  }

  async update(id: number, change: CompanyChange): Promise<Company | undefined> {
    if (!safeId(id)) return undefined;
    return this.db.one<Company>(
      'UPDATE companies SET name = COALESCE($1, name), timezone = COALESCE($2, timezone), speed_factor = COALESCE($3, speed_factor) WHERE id = $4 RETURNING *',
      [change.name ?? null, change.timezone ?? null, change.speed_factor ?? null, id],
    );
  }

  async findByName(name: string): Promise<Company | undefined> {
    return this.db.one<Company>('SELECT * FROM companies WHERE name = $1 ORDER BY id LIMIT 1', [name]);
  }
}

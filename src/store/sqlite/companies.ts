import { prepare, type Db } from './db.js';
import type { Company, CompanyChange } from '../types.js';

export class CompanyRepository {
  constructor(private readonly db: Db) {}

  create(input: { name: string; timezone: string; speed_factor?: number }, now: string): Company {
    const info = prepare(this.db, 'INSERT INTO companies (name, timezone, speed_factor, created_at) VALUES (?, ?, ?, ?)')
      .run(input.name, input.timezone, input.speed_factor ?? 1, now);
    return this.get(Number(info.lastInsertRowid))!;
  }

  get(id: number): Company | undefined {
    return prepare(this.db, 'SELECT * FROM companies WHERE id = ?').get(id) as Company | undefined;
  }

  /** The company after the change, or undefined when there is none with that id. */
  update(id: number, change: CompanyChange): Company | undefined {
    prepare(
      this.db,
      'UPDATE companies SET name = COALESCE(?, name), timezone = COALESCE(?, timezone), speed_factor = COALESCE(?, speed_factor) WHERE id = ?',
    ).run(change.name ?? null, change.timezone ?? null, change.speed_factor ?? null, id);
    return this.get(id);
  }

  findByName(name: string): Company | undefined {
    return prepare(this.db, 'SELECT * FROM companies WHERE name = ? ORDER BY id LIMIT 1').get(name) as
      | Company
      | undefined;
  }
}

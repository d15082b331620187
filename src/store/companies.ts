import type { Db } from './db.js';
import type { Company } from './types.js';

export class CompanyRepository {
  constructor(private readonly db: Db) {}

  create(input: { name: string; timezone: string }, now: string): Company {
    const info = this.db
      .prepare('INSERT INTO companies (name, timezone, created_at) VALUES (?, ?, ?)')
      .run(input.name, input.timezone, now);
    return this.get(Number(info.lastInsertRowid))!;
  }

  get(id: number): Company | undefined {
    return this.db.prepare('SELECT * FROM companies WHERE id = ?').get(id) as Company | undefined;
  }

  findByName(name: string): Company | undefined {
    return this.db.prepare('SELECT * FROM companies WHERE name = ? ORDER BY id LIMIT 1').get(name) as
      | Company
      | undefined;
  }
}

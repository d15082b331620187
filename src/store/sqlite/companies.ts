import { prepare, type Db } from './db.js';
import type { Company } from '../types.js';

export class CompanyRepository {
  constructor(private readonly db: Db) {}

  create(input: { name: string; timezone: string }, now: string): Company {
    const info = prepare(this.db, 'INSERT INTO companies (name, timezone, created_at) VALUES (?, ?, ?)')
      .run(input.name, input.timezone, now);
    return this.get(Number(info.lastInsertRowid))!;
  }

  get(id: number): Company | undefined {
    return prepare(this.db, 'SELECT * FROM companies WHERE id = ?').get(id) as Company | undefined;
  }

  findByName(name: string): Company | undefined {
    return prepare(this.db, 'SELECT * FROM companies WHERE name = ? ORDER BY id LIMIT 1').get(name) as
      | Company
      | undefined;
  }
}

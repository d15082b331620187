/**
 * `delivery-planner admin --db PATH <command> [options]` (docs/contract/operations.md): creates companies, API
 * keys, warehouses, vehicles and webhook subscriptions; prints the created record as one JSON
 * object. Bad arguments throw UsageError: exit 2 with one line on stderr.
 */
import { parseArgs } from 'node:util';
import { withNegativeValues } from './argv.js';
import { parseRoadModel, parseSpeedFactor } from './travel-flags.js';
import { redactText } from '../io/redact.js';
import { UsageError } from './usage-error.js';
import { companySpeedReport } from '../service/speed-report.js';
import { isValidTimeZone } from '../service/time.js';
import { openStore } from '../store/open.js';
import type { Repositories } from '../store/port.js';
import { SCOPES, WEBHOOK_EVENTS, type Company, type Scope, type Vehicle, type VehicleBreak, type VehicleChange, type WebhookEvent, type WebhookSubscription } from '../store/types.js';
import { MAX_BREAKS, MAX_TRIPS } from '../schema/problem.js';

export const DEFAULT_DB = './var/planner.db';

const OPTIONS = {
  db: { type: 'string' },
  name: { type: 'string' },
  timezone: { type: 'string' },
  company: { type: 'string' },
  scopes: { type: 'string' },
  label: { type: 'string' },
  id: { type: 'string' },
  lat: { type: 'string' },
  lon: { type: 'string' },
  address: { type: 'string' },
  warehouse: { type: 'string' },
  'capacity-kg': { type: 'string' },
  'capacity-m3': { type: 'string' },
  shift: { type: 'string' },
  'max-distance-km': { type: 'string' },
  'max-duration-min': { type: 'string' },
  'max-orders': { type: 'string' },
  'max-trips': { type: 'string' },
  'reload-min': { type: 'string' },
  features: { type: 'string' },
  inactive: { type: 'boolean' },
  active: { type: 'boolean' },
  break: { type: 'string', multiple: true },
  url: { type: 'string' },
  events: { type: 'string' },
  'speed-factor': { type: 'string' },
  days: { type: 'string' },
  apply: { type: 'boolean' },
  'speed-kmh': { type: 'string' },
  'detour-factor': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

interface Command {
  usage: string;
  required: (keyof Values)[];
  optional: (keyof Values)[];
  run(store: Repositories, v: Values, now: string): Promise<object>;
}

const COMMANDS: Record<string, Command> = {
  'company create': {
    usage: 'company create --name NAME [--timezone IANA] [--speed-factor F]',
    required: ['name'],
    optional: ['timezone', 'speed-factor'],
    async run(store, v, now) {
      const timezone = v.timezone ?? 'UTC';
      if (!isValidTimeZone(timezone)) throw new UsageError(`--timezone: unknown IANA time zone '${timezone}'`);
      const speed_factor = v['speed-factor'] === undefined ? 1 : parseSpeedFactor(v['speed-factor']);
      return companyJson(await store.companies.create({ name: text('name', v.name), timezone, speed_factor }, now));
    },
  },
  'company update': {
    usage: 'company update --id ID [--name NAME] [--timezone IANA] [--speed-factor F]',
    required: ['id'],
    optional: ['name', 'timezone', 'speed-factor'],
    async run(store, v) {
      const id = integer('id', v.id, 1);
      if (v.timezone !== undefined && !isValidTimeZone(v.timezone)) throw new UsageError(`--timezone: unknown IANA time zone '${v.timezone}'`);
      const change = {
        ...(v.name === undefined ? {} : { name: text('name', v.name) }),
        ...(v.timezone === undefined ? {} : { timezone: v.timezone }),
        ...(v['speed-factor'] === undefined ? {} : { speed_factor: parseSpeedFactor(v['speed-factor']) }),
      };
      const c = await store.companies.update(id, change);
      if (!c) throw new UsageError(`--id: no company ${id}`);
      return companyJson(c);
    },
  },
  'company speed-report': {
    usage: 'company speed-report --company ID [--days N] [--apply] [--speed-kmh N] [--detour-factor F]  (N days back, default 28)',
    required: ['company'],
    optional: ['days', 'apply', 'speed-kmh', 'detour-factor'],
    async run(store, v) {
      const company = await companyOf(store, v.company);
      const days = v.days === undefined ? 28 : integer('days', v.days, 1, 3660);
      return companySpeedReport(store, company, { days, apply: v.apply === true, now: new Date(), model: parseRoadModel(v) });
    },
  },
  'key create': {
    usage: `key create --company ID --scopes LIST [--label TEXT]  (scopes: ${SCOPES.join(',')})`,
    required: ['company', 'scopes'],
    optional: ['label'],
    async run(store, v, now) {
      const company = await companyOf(store, v.company);
      const scopes = list('scopes', v.scopes, SCOPES);
      const { record, key } = await store.apiKeys.create({ company_id: company.id, scopes, label: v.label ?? '' }, now);
      return { id: record.id, company_id: record.company_id, key, scopes: record.scopes };
    },
  },
  'key list': {
    usage: 'key list --company ID',
    required: ['company'],
    optional: [],
    async run(store, v) {
      const company = await companyOf(store, v.company);
      const keys = (await store.apiKeys.listForCompany(company.id)).map((k) => ({ id: k.id, scopes: k.scopes, label: k.label, created_at: k.created_at, revoked_at: k.revoked_at }));
      return { company_id: company.id, keys };
    },
  },
  'webhook list': {
    usage: 'webhook list --company ID',
    required: ['company'],
    optional: [],
    async run(store, v) {
      const company = await companyOf(store, v.company);
      return { company_id: company.id, webhooks: (await store.webhooks.listForCompany(company.id)).map(publicWebhook) };
    },
  },
  'webhook disable': {
    usage: 'webhook disable --id ID',
    required: ['id'],
    optional: [],
    async run(store, v) {
      return publicWebhook((await store.webhooks.setActive((await webhookOf(store, v.id)).id, false))!);
    },
  },
  'webhook enable': {
    usage: 'webhook enable --id ID  (also resumes one paused after 24 h of failures)',
    required: ['id'],
    optional: [],
    async run(store, v) {
      return publicWebhook((await store.webhooks.setActive((await webhookOf(store, v.id)).id, true))!);
    },
  },
  'webhook rotate-secret': {
    usage: 'webhook rotate-secret --id ID',
    required: ['id'],
    optional: [],
    async run(store, v) {
      const s = (await store.webhooks.rotateSecret((await webhookOf(store, v.id)).id))!;
      return { id: s.id, secret: s.secret };
    },
  },
  'key revoke': {
    usage: 'key revoke --id ID',
    required: ['id'],
    optional: [],
    async run(store, v, now) {
      const id = integer('id', v.id, 1);
      if (!(await store.apiKeys.get(id))) throw new UsageError(`--id: no API key ${id}`);
      const k = (await store.apiKeys.revoke(id, now))!;
      return { id: k.id, company_id: k.company_id, scopes: k.scopes, revoked_at: k.revoked_at };
    },
  },
  'warehouse create': {
    usage: 'warehouse create --company ID --name NAME --lat LAT --lon LON [--address TEXT]',
    required: ['company', 'name', 'lat', 'lon'],
    optional: ['address'],
    async run(store, v, now) {
      const company = await companyOf(store, v.company);
      const w = await store.warehouses.create(
        {
          company_id: company.id,
          name: text('name', v.name),
          address: v.address ?? '',
          lat: number('lat', v.lat, -90, 90),
          lon: number('lon', v.lon, -180, 180),
        },
        now,
      );
      return { id: w.id, company_id: w.company_id, name: w.name, address: w.address, lat: w.lat, lon: w.lon };
    },
  },
  'vehicle create': {
    usage:
      'vehicle create --company ID --name NAME --warehouse ID --capacity-kg N --capacity-m3 N [--shift HH:MM-HH:MM] [--max-distance-km N] [--max-duration-min N] [--max-orders N] [--features a,b] [--max-trips N] [--reload-min M] [--break HH:MM-HH:MM/MIN ...] [--inactive]',
    required: ['company', 'name', 'warehouse', 'capacity-kg', 'capacity-m3'],
    optional: ['shift', 'max-distance-km', 'max-duration-min', 'max-orders', 'features', 'max-trips', 'reload-min', 'break', 'inactive'],
    async run(store, v, now) {
      const company = await companyOf(store, v.company);
      const warehouseId = await warehouseOf(store, company.id, v.warehouse);
      const change = vehicleChange(v);
      const vehicle = await store.vehicles.create(
        {
          company_id: company.id,
          warehouse_id: warehouseId,
          name: change.name!,
          capacity_kg: change.capacity_kg!,
          capacity_m3: change.capacity_m3!,
          shift_start: change.shift_start ?? null,
          shift_end: change.shift_end ?? null,
          max_distance_km: change.max_distance_km ?? null,
          max_duration_min: change.max_duration_min ?? null,
          max_orders: change.max_orders ?? null,
          features: change.features ?? [],
          // trips per shift, going back to the warehouse to load between them (mid_depot stops)
          max_trips: change.max_trips ?? 1,
          reload_min: change.reload_min ?? 15,
          breaks: change.breaks ?? [],
          active: !v.inactive,
        },
        now,
      );
      return vehicleJson(vehicle);
    },
  },
  'vehicle update': {
    usage:
      'vehicle update --id ID [--company ID] [--name NAME] [--warehouse ID] [--capacity-kg N] [--capacity-m3 N] [--shift HH:MM-HH:MM|none] [--max-distance-km N|none] [--max-duration-min N|none] [--max-orders N|none] [--features a,b|none] [--max-trips N] [--reload-min M] [--break HH:MM-HH:MM/MIN ...|--break none] [--inactive|--active]',
    required: ['id'],
    optional: ['company', 'name', 'warehouse', 'capacity-kg', 'capacity-m3', 'shift', 'max-distance-km', 'max-duration-min', 'max-orders', 'features', 'max-trips', 'reload-min', 'break', 'inactive', 'active'],
    async run(store, v) {
      const id = integer('id', v.id, 1);
      const found = await store.vehicles.findById(id);
      if (!found) throw new UsageError(`--id: no vehicle ${id}`);
      if (v.company !== undefined && (await companyOf(store, v.company)).id !== found.company_id) {
        throw new UsageError(`--id: vehicle ${id} is not in company ${v.company}`);
      }
      if (v.inactive && v.active) throw new UsageError('vehicle update: give --inactive or --active, not both');
      const change = vehicleChange(v);
      if (v.warehouse !== undefined) change.warehouse_id = await warehouseOf(store, found.company_id, v.warehouse);
      if (v.inactive) change.active = false;
      if (v.active) change.active = true;
      if (Object.keys(change).length === 0) throw new UsageError(`vehicle update: nothing to change (usage: ${COMMANDS['vehicle update']!.usage})`);
      return vehicleJson((await store.vehicles.update(found.company_id, id, change))!);
    },
  },
  'webhook create': {
    usage: `webhook create --company ID --url URL --events LIST  (events: ${WEBHOOK_EVENTS.join(',')})`,
    required: ['company', 'url', 'events'],
    optional: [],
    async run(store, v, now) {
      const company = await companyOf(store, v.company);
      let url: URL;
      try {
        url = new URL(v.url!);
      } catch {
        throw new UsageError(`--url: not a URL: '${redactText(v.url!)}'`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--url: must be http or https');
      // a password in the URL would be stored and printed with every failed delivery (and fetch
      // refuses such URLs anyway): receivers authenticate deliveries by their signature
      if (url.username !== '' || url.password !== '') throw new UsageError('--url: must not hold a user name or password (deliveries are signed instead)');
      const events = list('events', v.events, WEBHOOK_EVENTS) as WebhookEvent[];
      const s = await store.webhooks.create({ company_id: company.id, url: url.toString(), events }, now);
      return { id: s.id, company_id: s.company_id, url: s.url, events: s.events, secret: s.secret };
    },
  },
};

async function warehouseOf(store: Repositories, companyId: number, value: string | undefined): Promise<number> {
  const warehouseId = integer('warehouse', value, 1);
  if (!(await store.warehouses.get(companyId, warehouseId))) throw new UsageError(`--warehouse: no warehouse ${warehouseId} in company ${companyId}`);
  return warehouseId;
}

/** The vehicle fields given on the command line (create and update); `none` clears an optional one on update. */
function vehicleChange(v: Values): VehicleChange {
  const change: VehicleChange = {};
  const none = (value: string | undefined) => value?.trim() === 'none';
  if (v.name !== undefined) change.name = text('name', v.name);
  if (v['capacity-kg'] !== undefined) change.capacity_kg = number('capacity-kg', v['capacity-kg'], 0, 1e9);
  if (v['capacity-m3'] !== undefined) change.capacity_m3 = number('capacity-m3', v['capacity-m3'], 0, 1e9);
  if (v.shift !== undefined) [change.shift_start, change.shift_end] = none(v.shift) ? [null, null] : shift(v.shift);
  if (v['max-distance-km'] !== undefined) change.max_distance_km = none(v['max-distance-km']) ? null : number('max-distance-km', v['max-distance-km'], 0, 1e6);
  if (v['max-duration-min'] !== undefined) change.max_duration_min = none(v['max-duration-min']) ? null : integer('max-duration-min', v['max-duration-min'], 1);
  if (v['max-orders'] !== undefined) change.max_orders = none(v['max-orders']) ? null : integer('max-orders', v['max-orders'], 1);
  if (v.features !== undefined) change.features = none(v.features) ? [] : [...new Set(v.features.split(',').map((f) => f.trim()).filter((f) => f !== ''))];
  if (v['max-trips'] !== undefined) change.max_trips = integer('max-trips', v['max-trips'], 1, MAX_TRIPS);
  if (v['reload-min'] !== undefined) change.reload_min = integer('reload-min', v['reload-min'], 0, 24 * 60);
  if (v.break !== undefined && v.break.length > MAX_BREAKS) throw new UsageError(`--break: at most ${MAX_BREAKS} breaks a vehicle, got ${v.break.length}`);
  if (v.break !== undefined) change.breaks = v.break.length === 1 && none(v.break[0]) ? [] : v.break.map(parseBreak).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return change;
}

/** `HH:MM-HH:MM/MIN`: a break of MIN minutes starting inside the window. */
export function parseBreak(value: string): VehicleBreak {
  const m = value.length > 32 ? null : /^(\d{2}):(\d{2})-(\d{2}):(\d{2})\/(\d{1,4})$/.exec(value.trim());
  const ok = (h: string, min: string) => Number(h) < 24 && Number(min) < 60;
  if (!m || !ok(m[1]!, m[2]!) || !ok(m[3]!, m[4]!)) throw new UsageError(`--break: expected HH:MM-HH:MM/MIN, got '${value.slice(0, 64)}'`);
  const start = `${m[1]}:${m[2]}`;
  const end = `${m[3]}:${m[4]}`;
  const minutes = Number(m[5]);
  if (end < start) throw new UsageError(`--break: the window's end must not be before its start ('${value.slice(0, 64)}')`);
  if (minutes < 1 || minutes > 12 * 60) throw new UsageError(`--break: the length must be between 1 and ${12 * 60} minutes ('${value.slice(0, 64)}')`);
  return { start, end, minutes };
}

function companyJson(c: Company) {
  return { id: c.id, name: c.name, timezone: c.timezone, speed_factor: c.speed_factor };
}

export function vehicleJson(v: Vehicle) {
  return {
    id: v.id,
    company_id: v.company_id,
    warehouse_id: v.warehouse_id,
    name: v.name,
    capacity_kg: v.capacity_kg,
    capacity_m3: v.capacity_m3,
    shift: v.shift_start === null ? null : `${v.shift_start}-${v.shift_end}`,
    max_distance_km: v.max_distance_km,
    max_duration_min: v.max_duration_min,
    max_orders: v.max_orders,
    features: v.features,
    max_trips: v.max_trips,
    reload_min: v.reload_min,
    breaks: v.breaks.map((b) => `${b.start}-${b.end}/${b.minutes}`),
    active: v.active,
  };
}

function usage(): string {
  return [
    'usage: delivery-planner admin [--db PATH] <command> [options]',
    `  --db PATH   the SQLite file (default ${DEFAULT_DB}); created and migrated if needed`,
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

function text(name: string, value: string | undefined): string {
  const t = (value ?? '').trim();
  if (t === '') throw new UsageError(`--${name}: must not be blank`);
  if (t.length > 255) throw new UsageError(`--${name}: at most 255 characters`);
  return t;
}

function number(name: string, value: string | undefined, min: number, max: number): number {
  const n = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name}: not a number: '${value}'`);
  if (n < min || n > max) throw new UsageError(`--${name}: must be between ${min} and ${max}`);
  return n;
}

function integer(name: string, value: string | undefined, min: number, max = Infinity): number {
  if (value === undefined || !/^\d{1,12}$/.test(value.trim())) throw new UsageError(`--${name}: not an integer: '${value}'`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name}: must be at least ${min}`);
  if (n > max) throw new UsageError(`--${name}: must be at most ${max}`);
  return n;
}

function list<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T[] {
  const items = [...new Set((value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (items.length === 0) throw new UsageError(`--${name}: give at least one of ${allowed.join(',')}`);
  const bad = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (bad.length > 0) throw new UsageError(`--${name}: unknown ${bad.join(',')} (allowed: ${allowed.join(',')})`);
  return items as T[];
}

function shift(value: string): [string, string] {
  const m = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(value.trim());
  const ok = (h: string, min: string) => Number(h) < 24 && Number(min) < 60;
  if (!m || !ok(m[1]!, m[2]!) || !(ok(m[3]!, m[4]!) || (m[3] === '24' && m[4] === '00'))) {
    throw new UsageError(`--shift: expected HH:MM-HH:MM, got '${value}'`);
  }
  const start = `${m[1]}:${m[2]}`;
  const end = `${m[3]}:${m[4]}`;
  if (end <= start) throw new UsageError('--shift: the end must be later than the start');
  return [start, end];
}

/** A subscription as `webhook list|disable|enable` print it: never its secret. */
function publicWebhook(s: WebhookSubscription) {
  return { id: s.id, url: s.url, events: s.events, active: s.active };
}

async function webhookOf(store: Repositories, value: string | undefined): Promise<WebhookSubscription> {
  const id = integer('id', value, 1);
  const s = await store.webhooks.get(id);
  if (!s) throw new UsageError(`--id: no webhook subscription ${id}`);
  return s;
}

async function companyOf(store: Repositories, value: string | undefined): Promise<Company> {
  const id = integer('company', value, 1);
  const company = await store.companies.get(id);
  if (!company) throw new UsageError(`--company: no company ${id}`);
  return company;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: withNegativeValues(argv, OPTIONS), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
  const v = parsed.values as Values;
  if (v.help) {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  const name = parsed.positionals.join(' ');
  const command = COMMANDS[name];
  if (!command) {
    throw new UsageError(
      name === '' ? `admin: missing command (one of: ${Object.keys(COMMANDS).join(', ')})` : `admin: unknown command '${name}' (one of: ${Object.keys(COMMANDS).join(', ')})`,
    );
  }
  const given = Object.keys(v).filter((k) => k !== 'db') as (keyof Values)[];
  const extra = given.filter((k) => !command.required.includes(k) && !command.optional.includes(k));
  if (extra.length > 0) throw new UsageError(`${name}: unexpected option --${extra[0]} (usage: ${command.usage})`);
  const missing = command.required.filter((k) => v[k] === undefined);
  if (missing.length > 0) throw new UsageError(`${name}: missing --${missing[0]} (usage: ${command.usage})`);
  if (v.db !== undefined && v.db.trim() === '') throw new UsageError('--db: must not be blank');
  const store = await openStore(v.db ?? DEFAULT_DB);
  try {
    const record = await store.transaction((tx) => command.run(tx, v, new Date().toISOString()));
    process.stdout.write(JSON.stringify(record) + '\n');
    return 0;
  } finally {
    await store.close();
  }
}

export type { Scope };

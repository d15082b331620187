/**
 * Versioned schema migrations, applied in order on every start inside one transaction each.
 * Append new migrations at the end; never edit one that has shipped. Later parts of the service
 * (planning jobs, routes, stops, positions, webhook outbox) add their tables as new versions.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** 2: planning jobs, routes, stops, vehicle positions, webhook outbox (the planning adapter, planning.ts). */
const PLANNING: Migration = {
  version: 2,
  name: 'planning jobs, routes, stops, vehicle positions, webhook outbox, order features',
  sql: `
    ALTER TABLE orders ADD COLUMN required_features TEXT NOT NULL DEFAULT '[]';

    CREATE TABLE planning_jobs (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES companies(id),
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
      input TEXT NOT NULL,
      result TEXT,
      error TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX planning_jobs_status ON planning_jobs(status, id);

    CREATE TABLE routes (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES companies(id),
      job_id INTEGER,
      vehicle_id INTEGER REFERENCES vehicles(id),
      name TEXT NOT NULL,
      date TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'planned'
        CHECK (status IN ('planned', 'active', 'completed', 'archived', 'cancelled')),
      planned_mileage_km REAL NOT NULL,
      planned_duration_min INTEGER NOT NULL,
      total_weight_kg REAL NOT NULL,
      total_volume_m3 REAL NOT NULL,
      actual_start_at TEXT,
      actual_end_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX routes_company ON routes(company_id, id);
    CREATE INDEX routes_company_date ON routes(company_id, date, status);
    CREATE INDEX routes_vehicle_date ON routes(vehicle_id, date);

    CREATE TABLE route_stops (
      id INTEGER PRIMARY KEY,
      route_id INTEGER NOT NULL REFERENCES routes(id),
      position INTEGER NOT NULL,
      stop_type TEXT NOT NULL CHECK (stop_type IN ('order', 'start_depot', 'mid_depot', 'end_depot')),
      status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'in_progress', 'visited', 'confirmed', 'rejected', 'skipped')),
      order_id INTEGER REFERENCES orders(id),
      order_external_id TEXT,
      warehouse_id INTEGER REFERENCES warehouses(id),
      address TEXT NOT NULL,
      lat REAL NOT NULL,
      lon REAL NOT NULL,
      planned_arrival_at TEXT,
      planned_departure_at TEXT,
      actual_arrival_at TEXT,
      actual_departure_at TEXT,
      UNIQUE (route_id, position)
    );
    CREATE INDEX route_stops_order ON route_stops(order_id);

    CREATE TABLE vehicle_positions (
      id INTEGER PRIMARY KEY,
      company_id INTEGER NOT NULL REFERENCES companies(id),
      vehicle_id INTEGER NOT NULL REFERENCES vehicles(id),
      lat REAL NOT NULL,
      lon REAL NOT NULL,
      timestamp TEXT NOT NULL,
      speed_kmh REAL NOT NULL,
      heading_deg REAL NOT NULL,
      received_at TEXT NOT NULL
    );
    CREATE INDEX vehicle_positions_latest ON vehicle_positions(vehicle_id, timestamp, id);
    -- the webhook outbox (its SQL once lived in src/webhooks/outbox.ts; the same text)
    CREATE TABLE IF NOT EXISTS webhook_deliveries (
      id TEXT PRIMARY KEY,
      subscription_id INTEGER NOT NULL,
      url TEXT NOT NULL,
      secret TEXT NOT NULL,
      event TEXT NOT NULL,
      body TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      last_error TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL,
      delivered_at INTEGER
    );
    CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

  `,
};

/** 3: the dispatch side of routes (routes.ts). */
const DISPATCH: Migration = {
  version: 3,
  name: 'dispatch: vehicle assignment of routes',
  sql: `
    ALTER TABLE routes ADD COLUMN assigned_vehicle_id INTEGER REFERENCES vehicles(id);
    ALTER TABLE routes ADD COLUMN vehicle_assigned_at TEXT;
    CREATE INDEX route_stops_route ON route_stops(route_id, position);
  `,
};

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'companies, keys, warehouses, vehicles, orders, history, geocoding queue, webhooks',
    sql: `
      CREATE TABLE companies (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        timezone TEXT NOT NULL DEFAULT 'UTC',
        created_at TEXT NOT NULL
      );

      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        company_id INTEGER NOT NULL REFERENCES companies(id),
        prefix TEXT NOT NULL,
        key_hash BLOB NOT NULL,
        scopes TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX api_keys_prefix ON api_keys(prefix);

      CREATE TABLE warehouses (
        id INTEGER PRIMARY KEY,
        company_id INTEGER NOT NULL REFERENCES companies(id),
        name TEXT NOT NULL,
        address TEXT NOT NULL DEFAULT '',
        lat REAL NOT NULL,
        lon REAL NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX warehouses_company ON warehouses(company_id);

      CREATE TABLE vehicles (
        id INTEGER PRIMARY KEY,
        company_id INTEGER NOT NULL REFERENCES companies(id),
        warehouse_id INTEGER NOT NULL REFERENCES warehouses(id),
        name TEXT NOT NULL,
        capacity_kg REAL NOT NULL,
        capacity_m3 REAL NOT NULL,
        shift_start TEXT,
        shift_end TEXT,
        max_distance_km REAL,
        max_duration_min INTEGER,
        max_orders INTEGER,
        features TEXT NOT NULL DEFAULT '[]',
        active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
      );
      CREATE INDEX vehicles_company ON vehicles(company_id);

      -- Decimals are stored as scaled integers: weight in grams, volume in litres (m3 / 1000),
      -- lat/lon in micro-degrees. No binary floating point between the wire and the disk.
      CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        company_id INTEGER NOT NULL REFERENCES companies(id),
        external_id TEXT,
        name TEXT NOT NULL DEFAULT '',
        recipient TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        address TEXT NOT NULL,
        lat_e6 INTEGER,
        lon_e6 INTEGER,
        time_window_start TEXT,
        time_window_end TEXT,
        weight_g INTEGER NOT NULL DEFAULT 0,
        volume_l INTEGER NOT NULL DEFAULT 0,
        service_time INTEGER NOT NULL DEFAULT 10,
        notes TEXT NOT NULL DEFAULT '',
        order_type TEXT NOT NULL DEFAULT 'one_time',
        status TEXT NOT NULL DEFAULT 'new',
        delivery_date TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX orders_company_id ON orders(company_id, id);
      CREATE INDEX orders_company_status ON orders(company_id, status, id);
      -- Not unique: duplicates made by other means (imports) stay possible, as the contract says.
      CREATE INDEX orders_company_external ON orders(company_id, external_id, id);

      CREATE TABLE order_status_history (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        status TEXT NOT NULL,
        previous_status TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX order_status_history_order ON order_status_history(order_id, id);

      CREATE TABLE geocode_queue (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        address TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        last_error TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      );
      CREATE INDEX geocode_queue_due ON geocode_queue(next_attempt_at, id);
      CREATE INDEX geocode_queue_order ON geocode_queue(order_id);

      CREATE TABLE webhook_subscriptions (
        id INTEGER PRIMARY KEY,
        company_id INTEGER NOT NULL REFERENCES companies(id),
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        secret TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
      );
      CREATE INDEX webhook_subscriptions_company ON webhook_subscriptions(company_id);
    `,
  },
  // 2: planning jobs, routes, stops, positions, webhook outbox (read and written by planning.ts)
  PLANNING,
  // 3: dispatch side of routes (routes.ts)
  DISPATCH,
  // 101 and up: the service's own later migrations (a separate range, so parallel work never collides)
  {
    version: 101,
    name: 'order counts per company and status, kept by triggers (O(1) count for the order list)',
    sql: `
      CREATE TABLE order_counts (
        company_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (company_id, status)
      ) WITHOUT ROWID;
      INSERT INTO order_counts (company_id, status, n)
        SELECT company_id, status, COUNT(*) FROM orders GROUP BY company_id, status;
      CREATE TRIGGER order_counts_insert AFTER INSERT ON orders BEGIN
        INSERT INTO order_counts (company_id, status, n) VALUES (NEW.company_id, NEW.status, 1)
          ON CONFLICT (company_id, status) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER order_counts_update AFTER UPDATE OF status, company_id ON orders
        WHEN OLD.status IS NOT NEW.status OR OLD.company_id IS NOT NEW.company_id BEGIN
        UPDATE order_counts SET n = n - 1 WHERE company_id = OLD.company_id AND status = OLD.status;
        INSERT INTO order_counts (company_id, status, n) VALUES (NEW.company_id, NEW.status, 1)
          ON CONFLICT (company_id, status) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER order_counts_delete AFTER DELETE ON orders BEGIN
        UPDATE order_counts SET n = n - 1 WHERE company_id = OLD.company_id AND status = OLD.status;
      END;
    `,
  },
  {
    version: 102,
    name: 'webhook subscriptions: failing since (epoch ms), paused after 24 h of failures',
    sql: `
      ALTER TABLE webhook_subscriptions ADD COLUMN failing_since INTEGER;
      ALTER TABLE webhook_subscriptions ADD COLUMN paused_at TEXT;
    `,
  },
  {
    version: 103,
    name: 'vehicle positions by arrival time (retention pruning)',
    sql: `CREATE INDEX vehicle_positions_received ON vehicle_positions(received_at);`,
  },
  {
    version: 104,
    name: 'Idempotency-Key of planning submit: the first job of a key for 24 h',
    sql: `
      CREATE TABLE idempotency_keys (
        company_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        job_id INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (company_id, key)
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
    `,
  },
  {
    version: 105,
    name: 'planning job leases: the process running a job holds it until lease_until and renews it; companies take turns',
    sql: `
      ALTER TABLE planning_jobs ADD COLUMN lease_owner TEXT;
      ALTER TABLE planning_jobs ADD COLUMN lease_until TEXT;
      ALTER TABLE planning_jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE planning_turns (
        company_id INTEGER PRIMARY KEY,
        turn INTEGER NOT NULL
      );
    `,
  },
  {
    version: 106,
    name: 'geocoding task and webhook delivery leases: in a lookup or a try it belongs to one process until lease_until',
    sql: `
      ALTER TABLE geocode_queue ADD COLUMN lease_owner TEXT;
      ALTER TABLE geocode_queue ADD COLUMN lease_until TEXT;
      ALTER TABLE webhook_deliveries ADD COLUMN lease_owner TEXT;
      ALTER TABLE webhook_deliveries ADD COLUMN lease_until INTEGER;
    `,
  },
  {
    version: 107,
    name: 'vehicles: trips per shift and reload minutes (mid_depot stops between trips)',
    sql: `
      ALTER TABLE vehicles ADD COLUMN max_trips INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE vehicles ADD COLUMN reload_min INTEGER NOT NULL DEFAULT 15;
    `,
  },
  {
    version: 108,
    name: 'orders: a version counting every change (a plan commits only over the versions it read)',
    sql: `ALTER TABLE orders ADD COLUMN version INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 109,
    name: 'companies: a speed factor (travel times times it; admin company update --speed-factor, speed-report --apply)',
    sql: `ALTER TABLE companies ADD COLUMN speed_factor REAL NOT NULL DEFAULT 1;`,
  },
  {
    version: 110,
    name: 'driver breaks: a vehicle\'s breaks (JSON [{start, end, minutes}]) and a route\'s planned breaks (JSON [{start, end}])',
    sql: `
      ALTER TABLE vehicles ADD COLUMN breaks TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE routes ADD COLUMN breaks TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 120,
    name: 'webhook outbox looks on indexes: pending deliveries by subscription and due time, live leases by subscription',
    sql: `
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (subscription_id, next_attempt_at, created_at, id) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (subscription_id, lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL;
    `,
  },
  {
    version: 121,
    name: 'geocoding queue looks on indexes: the company of each task, tasks by company and due time, live leases',
    sql: `
      ALTER TABLE geocode_queue ADD COLUMN company_id INTEGER;
      UPDATE geocode_queue SET company_id = (SELECT o.company_id FROM orders o WHERE o.id = geocode_queue.order_id);
      CREATE INDEX geocode_queue_company_due ON geocode_queue (company_id, next_attempt_at, id);
      CREATE INDEX geocode_queue_leased ON geocode_queue (lease_until) WHERE lease_until IS NOT NULL;
    `,
  },
  {
    version: 122,
    name: 'open orders per company: on SQLite the sum of order_counts (migration 101) for new and in_route, exact and O(1)',
    sql: `SELECT 1;`,
  },
  {
    version: 123,
    name: 'pending webhook deliveries per subscription, kept by triggers (the pending-deliveries quota, the backlog metric)',
    sql: `
      CREATE TABLE webhook_pending_counts (
        subscription_id INTEGER PRIMARY KEY,
        n INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO webhook_pending_counts (subscription_id, n)
        SELECT subscription_id, COUNT(*) FROM webhook_deliveries WHERE status = 'pending' GROUP BY subscription_id;
      CREATE TRIGGER webhook_pending_insert AFTER INSERT ON webhook_deliveries WHEN NEW.status = 'pending' BEGIN
        INSERT INTO webhook_pending_counts (subscription_id, n) VALUES (NEW.subscription_id, 1)
          ON CONFLICT (subscription_id) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER webhook_pending_update AFTER UPDATE OF status ON webhook_deliveries
        WHEN (OLD.status = 'pending') <> (NEW.status = 'pending') BEGIN
        INSERT INTO webhook_pending_counts (subscription_id, n) VALUES (NEW.subscription_id, CASE WHEN NEW.status = 'pending' THEN 1 ELSE -1 END)
          ON CONFLICT (subscription_id) DO UPDATE SET n = n + excluded.n;
      END;
      CREATE TRIGGER webhook_pending_delete AFTER DELETE ON webhook_deliveries WHEN OLD.status = 'pending' BEGIN
        UPDATE webhook_pending_counts SET n = n - 1 WHERE subscription_id = OLD.subscription_id;
      END;
    `,
  },
  {
    version: 124,
    name: 'open orders per company: on PostgreSQL one update of the count per company and transaction (SQLite: order_counts, unchanged)',
    sql: `SELECT 1;`,
  },
  {
    version: 125,
    name: 'pending webhook deliveries per subscription: on PostgreSQL one update of the count per subscription and transaction (SQLite: its triggers, unchanged)',
    sql: `SELECT 1;`,
  },
];

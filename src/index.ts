/** The library's public face: re-exports only. The engine (also `delivery-planner/engine`), then the service. */
export * from './engine.js';
// the service: HTTP app (no listening), SQLite store, order service and events, geocoding
export { buildApp, appServices, API_PREFIX, type AppOptions, type AppServices } from './http/app.js';
export { Store } from './store/sqlite/store.js';
export { openDatabase, migrate, type Db } from './store/sqlite/db.js';
export { ServiceEvents, type OrderStatusChanged } from './service/events.js';
export { OrderService } from './service/orders.js';
export { AddressBook, TableGeocoder, NominatimGeocoder, GeocodeWorker, GeocodeError, type Geocoder } from './geocode/index.js';

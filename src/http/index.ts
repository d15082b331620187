export { buildApp, appServices, API_PREFIX, type AppOptions, type AppServices } from './app.js';
export { HttpError, DETAIL } from './errors.js';
export { serializeOrder, parseOrderCreate, parseOrderPatch, LIMITS, MESSAGES } from '../contract/order.js';

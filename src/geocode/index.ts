export { AddressBook, normalizeAddress, parseCsv, type Coordinates } from './address-book.js';
export {
  createGeocoder,
  GeocodeError,
  NominatimGeocoder,
  TableGeocoder,
  type Geocoder,
  type GeocoderName,
  type NominatimOptions,
} from './providers.js';
export { GeocodeWorker, type GeocodeWorkerOptions } from './worker.js';

export {
  adminFor,
  bookingBody,
  createBookingGarage,
  customer,
  ENCRYPTION_KEY,
  FIRST_VERSION,
  LOOPBACK_NETWORKS,
  product,
  seedGarage,
  vehicle,
  type BookingGarage,
  type SeededGarage,
} from './seed.js';

/** Credit holds for jobs: reserve, settle once, release; the internal routes catalog calls. */
export { ReservationRepository } from './reservation-repository.ts';
export { reservationRoutes } from './reservation-routes.ts';
export { Reservations, type ReservationDoc } from './reservation-service.ts';

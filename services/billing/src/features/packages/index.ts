/** Credit packages and checkout: the catalog, the payment-provider port, orders turned into credits. */
export { Checkout, type OrderDoc } from './checkout-service.ts';
export { OrderRepository } from './order-repository.ts';
export { parsePackages } from './package-catalog.ts';
export { packageRoutes, type PackageServices } from './package-routes.ts';
export { paymentProviderFor, type PaymentProvider } from './payment-provider.ts';

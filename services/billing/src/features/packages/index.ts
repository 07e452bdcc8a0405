/** Credit packages and checkout: the catalog, the payment-provider port, orders turned into credits. */
export { Checkout } from './checkout-service.ts';
export { OrderRepository } from './order-repository.ts';
export { parsePackages } from './package-catalog.ts';
export { packageRoutes } from './package-routes.ts';
export { paymentProviderFor, type PaymentProvider } from './payment-provider.ts';

/** Referral codes, clicks, signups and the first-purchase reward. */
export { ReferralCodeRepository } from './referral-code-repository.ts';
export { referralRoutes } from './referral-routes.ts';
export { Referrals } from './referral-service.ts';

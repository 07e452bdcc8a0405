/** Passwords: the policy a new one must meet, and argon2id hashing (with the decoy work for unknown emails). */
export { PasswordHasher, type PasswordHasherOptions } from './password-hasher.ts';
export { passwordProblems } from './password-policy.ts';

import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

export interface PasswordHasherOptions {
  memoryCost: number;
  timeCost: number;
}

/** argon2id hashing. `verifyOrWaste` spends the same work when the user does not exist. */
export class PasswordHasher {
  readonly #options: PasswordHasherOptions;
  #decoy: Promise<string> | undefined;

  constructor(options: PasswordHasherOptions) {
    this.#options = options;
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.#options.memoryCost, timeCost: this.#options.timeCost, parallelism: 1 });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Runs a verification against a decoy hash so an unknown email costs as much as a wrong password. */
  async waste(password: string): Promise<false> {
    this.#decoy ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(await this.#decoy, password);
    return false;
  }
}

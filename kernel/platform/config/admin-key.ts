import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { PlatformConfig } from './platform.config';

/** The header operators prove themselves with: ADMIN_API_KEY. */
export const ADMIN_KEY_HEADER = 'x-admin-key';

/**
 * The one comparison of a caller's X-Admin-Key with ADMIN_API_KEY: both hashed first, so the
 * comparison takes the same time whatever the length or the value given. The `/admin` guard
 * refuses on it; `/health/ready` shows its details on it.
 */
@Injectable()
export class AdminKey {
  private readonly expected: Buffer;

  constructor(config: PlatformConfig) {
    this.expected = createHash('sha256').update(config.adminApiKey).digest();
  }

  /** Whether the header's value (as Fastify gives it: absent, a string or several) is the operator key. */
  matches(header: unknown): boolean {
    const given = createHash('sha256')
      .update(typeof header === 'string' ? header : '')
      .digest();
    return typeof header === 'string' && timingSafeEqual(given, this.expected);
  }
}

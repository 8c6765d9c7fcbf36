import { ThreeDsResultDto } from './dto/three-ds.dto';
import { ThreeDsRecord } from './three-ds.repository';
import { decimalStringToCents } from '../../kernel/common/formats/money';

/** The authenticate / challenge-result answer of a recorded authentication. */
export function resultView(r: ThreeDsRecord): ThreeDsResultDto {
  const challenged = r.acsTransactionId !== null;
  const status = {
    AUTHENTICATED: challenged ? 'AUTHENTICATED' : 'FRICTIONLESS',
    NOT_AUTHENTICATED: 'REJECTED',
    UNAVAILABLE: 'UNAVAILABLE',
    CHALLENGE_PENDING: 'CHALLENGE',
    CHALLENGE_FAILED: 'CHALLENGE_FAILED',
    INITIALIZED: 'CHALLENGE',
    SETUP_COMPLETE: 'CHALLENGE',
  }[r.status];
  const v: ThreeDsResultDto = {
    status,
    transStatus: r.transStatus ?? 'C',
    dsTransactionId: r.dsTransactionId!,
    liabilityShift: r.transStatus === 'Y',
    referenceId: r.referenceId!,
    requestId: r.requestId!,
  };
  if (r.eci) v.eci = r.eci;
  if (r.cavv) v.cavv = r.cavv;
  if (r.status === 'CHALLENGE_PENDING' && r.challengeUrl) v.challengeUrl = r.challengeUrl;
  return v;
}

/** Decimal string of integer cents ("150.75"). */
export function decimal(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Cents of a decimal amount (number or string) with at most 2 decimals; null when it is not one. */
export function centsOf(v: string | number): number | null {
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(s)) return null;
  return decimalStringToCents(s);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A URL the cardholder's browser may be sent to: https, or http on a loopback host (development). */
export function browserUrl(value: string): URL | null {
  try {
    const u = new URL(value);
    if (u.username || u.password) return null;
    if (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname))) return u;
    return null;
  } catch {
    return null;
  }
}

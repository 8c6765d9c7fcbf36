import { Injectable } from '@nestjs/common';

import { CardErrors } from '../cards.errors';
import { ThreeDsDataDto } from '../dto/card-payment.dto';
import { ThreeDsResults } from '../../../kernel/common/contracts/three-ds-results.port';
import { StoredCardRecord } from '../vault/stored-cards.repository';
import { CardPaymentStatus } from '../../provider/acquirer/card-charge.state-machine';
import { Tx } from '../../../kernel/platform/database/sql';

/** What 3DS decides for the payment. */
export interface ThreeDsDecision {
  authenticationId: string;
  transStatus: 'Y' | 'N' | 'U';
  eci: string | null;
  /** sent to the acquirer with the authorization */
  acquirerData?: { cavv?: string; eci?: string; dsTransactionId: string; status: string };
  /** set when 3DS refused the cardholder: the payment ends here without reaching the acquirer */
  refusedAs?: Extract<CardPaymentStatus, 'CHALLENGE_REJECTED' | 'SETUP_REJECTED'>;
}

/**
 * Checks `threeDsData` against the tenant's authentication record: same card, same amount,
 * same CAVV and ECI, finished, and not used by another payment.
 */
@Injectable()
export class PaymentThreeDsCheck {
  constructor(private readonly results: ThreeDsResults) {}

  async decide(m: Tx, tenantId: string, data: ThreeDsDataDto, card: StoredCardRecord, amountCents: number): Promise<ThreeDsDecision> {
    const auth = await this.results.lockByDsTransactionId(m, tenantId, data.dsTransactionId);
    if (!auth) throw CardErrors.error('three_ds_not_found', 'No 3DS authentication with this dsTransactionId for this tenant');
    if (auth.paymentId) throw CardErrors.error('three_ds_already_used', 'This 3DS authentication was already used by another payment');
    if (auth.cardFingerprint !== card.fingerprint)
      throw CardErrors.error('three_ds_mismatch', 'The 3DS authentication was for another card');
    if (auth.amountCents !== amountCents) throw CardErrors.error('three_ds_mismatch', 'The 3DS authentication was for another amount');
    if (auth.transStatus === 'C' || auth.transStatus === null) {
      throw CardErrors.error('three_ds_incomplete', 'The 3DS authentication is not finished (call challenge-result after the challenge)');
    }
    if ((auth.cavv ?? undefined) !== (data.cavv ?? undefined) || auth.eci !== data.eci) {
      throw CardErrors.error('three_ds_mismatch', 'cavv or eci do not match the 3DS result');
    }
    const base = { authenticationId: auth.id, transStatus: auth.transStatus, eci: auth.eci };
    if (auth.transStatus === 'N') return { ...base, refusedAs: auth.challenged ? 'CHALLENGE_REJECTED' : 'SETUP_REJECTED' };
    return {
      ...base,
      acquirerData: {
        cavv: auth.cavv ?? undefined,
        eci: auth.eci ?? undefined,
        dsTransactionId: auth.dsTransactionId,
        status: auth.transStatus,
      },
    };
  }

  async markUsed(m: Tx, authenticationId: string, paymentId: string): Promise<void> {
    if (!(await this.results.markUsed(m, authenticationId, paymentId))) {
      throw CardErrors.error('three_ds_already_used', 'This 3DS authentication was already used by another payment');
    }
  }
}

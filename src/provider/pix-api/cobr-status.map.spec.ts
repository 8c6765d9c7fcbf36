import { BillingStatus } from '../../pix-automatic/domain/billing.state-machine';
import { transition } from '../../pix-automatic/domain/billing.state-machine';
import { classifyProviderEvent } from '../../pix-automatic/domain/provider-events';
import { retryDate } from './cobr-retry';
import { billingStatusOfCobr, CANCEL_REQUESTERS, COBR_STATUSES, CobrState, eventsToReach } from './cobr-status.map';

describe('cobr states → billing states', () => {
  it('maps every cobr status (and every cancel requester) to one of the nine billing states', () => {
    const seen: Record<string, string> = {};
    for (const status of COBR_STATUSES) {
      for (const who of [...CANCEL_REQUESTERS, undefined]) {
        const c = { status, encerramento: who ? { cancelamento: { solicitante: who } } : undefined };
        seen[`${status}/${who ?? '-'}`] = billingStatusOfCobr(c);
      }
    }
    expect(Object.values(seen).every((s) => (Object.values(BillingStatus) as string[]).includes(s))).toBe(true);
    expect(seen['CRIADA/-']).toBe('SENT');
    expect(seen['ATIVA/-']).toBe('ACTIVE');
    expect(seen['CONCLUIDA/-']).toBe('COMPLETED');
    expect(seen['EXPIRADA/-']).toBe('EXPIRED');
    expect(seen['REJEITADA/-']).toBe('REJECTED');
    expect(seen['CANCELADA/USUARIO_RECEBEDOR']).toBe('CANCELLED_RECEIVER');
    expect(seen['CANCELADA/PSP_RECEBEDOR']).toBe('CANCELLED_RECEIVER');
    expect(seen['CANCELADA/USUARIO_PAGADOR']).toBe('CANCELLED_PAYER');
    expect(seen['CANCELADA/PSP_PAGADOR']).toBe('CANCELLED_PAYER');
    // No requester: the payer's (a cancel of ours is terminal here already).
    expect(seen['CANCELADA/-']).toBe('CANCELLED_PAYER');
    // The PSP never stands for the two states of billings it does not hold.
    expect(Object.values(seen)).not.toContain('PENDING_SEND');
    expect(Object.values(seen)).not.toContain('SEND_FAILED');
  });

  it('reaches every state the PSP can stand for from SENT by known provider events, along the billing machine', () => {
    for (const target of Object.values(BillingStatus)) {
      let state: BillingStatus = BillingStatus.SENT;
      for (const e of eventsToReach(target)) {
        const c = classifyProviderEvent(e);
        if (!c.ok || c.mapping.kind !== 'billing' || !c.mapping.trigger) throw new Error(`${e} is not a billing move`);
        const r = transition(state, c.mapping.trigger);
        if (!r.ok) throw new Error(`${e} from ${state}: ${r.reason}`);
        state = r.to;
      }
      if (target !== BillingStatus.PENDING_SEND && target !== BillingStatus.SEND_FAILED) expect(state).toBe(target);
    }
  });
});

describe('retry policy (PERMITE_3R_7D)', () => {
  const base: CobrState = {
    txid: 'BL' + 'A'.repeat(30),
    status: 'ATIVA',
    politicaRetentativa: 'PERMITE_3R_7D',
    calendario: { dataDeVencimento: '2027-03-10' },
    tentativas: [{ dataLiquidacao: '2027-03-10', tipo: 'AGND', status: 'REJEITADA', rejeicao: { codigo: 'AM02' } }],
  };

  it('asks for the next day after a failed attempt, up to 3 retries within 7 days of the due date', () => {
    expect(retryDate(base, '2027-03-10')).toBe('2027-03-11');
    expect(retryDate(base, '2027-03-12')).toBe('2027-03-13');
    expect(retryDate(base, '2027-03-17')).toBeNull();
    const three = {
      ...base,
      tentativas: [
        ...base.tentativas!,
        ...['11', '12', '13'].map((d) => ({ dataLiquidacao: `2027-03-${d}`, tipo: 'NTAG' as const, status: 'REJEITADA' as const })),
      ],
    };
    expect(retryDate(three, '2027-03-13')).toBeNull();
  });

  it('never retries without the policy, with an attempt pending, after a paid one, or after a code that ends the cobr', () => {
    expect(retryDate({ ...base, politicaRetentativa: 'NAO_PERMITE' }, '2027-03-10')).toBeNull();
    expect(
      retryDate(
        { ...base, tentativas: [...base.tentativas!, { dataLiquidacao: '2027-03-11', tipo: 'NTAG', status: 'AGENDADA' }] },
        '2027-03-10',
      ),
    ).toBeNull();
    expect(retryDate({ ...base, tentativas: [{ ...base.tentativas![0], status: 'PAGA' }] }, '2027-03-10')).toBeNull();
    expect(retryDate({ ...base, tentativas: [{ ...base.tentativas![0], rejeicao: { codigo: 'AC05' } }] }, '2027-03-10')).toBeNull();
    expect(retryDate({ ...base, status: 'REJEITADA' }, '2027-03-10')).toBeNull();
  });
});

import { classifyProviderEvent } from '../../pix-automatic/domain/provider-events';
import { RecurrenceStatus, recurrenceStateMachine } from '../../pix-automatic/domain/recurrence.state-machine';
import { PERIODICIDADE, REC_CANCEL_REQUESTERS, REC_STATUSES, recEventsToReach, recurrenceStatusOfRec } from './rec-status.map';

/** Replays the events on our machine from PENDING (duplicates are no-ops), as the handler does. */
function reached(events: string[]): string {
  let s: string = RecurrenceStatus.PENDING;
  for (const e of events) {
    const c = classifyProviderEvent(e);
    if (!c.ok || c.mapping.kind !== 'recurrence' || !c.mapping.trigger) throw new Error(`not a recurrence move: ${e}`);
    const t = recurrenceStateMachine.transition(s as any, c.mapping.trigger);
    if (t.ok) s = t.to;
    else if (t.reason !== 'ALREADY_IN_TARGET_STATE') throw new Error(`${e} refused from ${s}: ${t.reason}`);
  }
  return s;
}

describe('API Pix rec → our recurrence', () => {
  const cases: { status: (typeof REC_STATUSES)[number]; who?: string; approved?: boolean }[] = [];
  for (const status of REC_STATUSES) {
    for (const who of [undefined, ...REC_CANCEL_REQUESTERS]) for (const approved of [false, true]) cases.push({ status, who, approved });
  }

  it.each(cases)('%j: the events reach the port status the table gives', ({ status, who, approved }) => {
    const rec = {
      status,
      encerramento: who ? { cancelamento: { solicitante: who } } : undefined,
      atualizacao: approved ? [{ status: 'APROVADA', data: '2026-01-01T00:00:00Z' }] : [],
    };
    const port = recurrenceStatusOfRec(rec);
    expect(Object.values(RecurrenceStatus)).toContain(port);
    expect(reached(recEventsToReach(rec))).toBe(port === 'ACCEPTED' ? 'ACCEPTED' : port);
  });

  it('names each state as the table does', () => {
    expect(recurrenceStatusOfRec({ status: 'CRIADA' })).toBe('PENDING');
    expect(recurrenceStatusOfRec({ status: 'APROVADA' })).toBe('ACCEPTED');
    expect(recurrenceStatusOfRec({ status: 'APROVADA' }, true)).toBe('ACTIVE');
    expect(recurrenceStatusOfRec({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR' } } })).toBe(
      'CANCELLED_PAYER',
    );
    expect(recurrenceStatusOfRec({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'PSP_RECEBEDOR' } } })).toBe(
      'CANCELLED_RECEIVER',
    );
    expect(recEventsToReach({ status: 'EXPIRADA', atualizacao: [{ status: 'APROVADA', data: 'x' }] })).toEqual([
      'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED',
      'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE',
    ]);
  });

  it('five periodicities have a name in the standard; DAILY and BIMONTHLY none', () => {
    expect(Object.values(PERIODICIDADE).sort()).toEqual(['ANUAL', 'MENSAL', 'SEMANAL', 'SEMESTRAL', 'TRIMESTRAL']);
    expect(PERIODICIDADE.DAILY).toBeUndefined();
    expect(PERIODICIDADE.BIMONTHLY).toBeUndefined();
  });
});

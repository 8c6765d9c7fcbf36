import { stateMachineOfTable } from '../../../kernel/platform/state-machine/state-machine';

/**
 * A hosted card session: CREATED by the merchant, OPENED once by the page (a second load is
 * 410), USED by its one tokenization. Both moves are guarded by the session's expiry; an
 * expired session simply stays where it is and is refused. The repository's conditional
 * UPDATEs take their source and target states from here (and check the expiry in SQL).
 */
export const CARD_SESSION_STATUSES = ['CREATED', 'OPENED', 'USED'] as const;
export type CardSessionStatus = (typeof CARD_SESSION_STATUSES)[number];
export const CARD_SESSION_TRIGGERS = ['open', 'tokenize'] as const;
export type CardSessionTrigger = (typeof CARD_SESSION_TRIGGERS)[number];

export interface CardSessionGuardContext {
  now: Date;
  expiresAt: Date;
}

const unexpired = (c: CardSessionGuardContext) => c.now.getTime() < c.expiresAt.getTime();

export const CARD_SESSION_MACHINE = stateMachineOfTable<CardSessionStatus, CardSessionTrigger, CardSessionGuardContext>(
  'card-session',
  CARD_SESSION_STATUSES,
  CARD_SESSION_TRIGGERS,
  { CREATED: { open: 'OPENED' }, OPENED: { tokenize: 'USED' }, USED: {} },
  { open: unexpired, tokenize: unexpired },
);

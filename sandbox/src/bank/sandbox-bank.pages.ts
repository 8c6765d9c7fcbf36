import { Injectable } from '@nestjs/common';
import { I18n } from '../../../kernel/common/i18n';
import { AppError } from '../../../kernel/platform/errors/app-error';
import { authorizationPage, messagePage, payerPage } from './pages';
import { SandboxBankService } from './sandbox-bank.service';

export interface Html {
  status: number;
  html: string;
}

/** Server-rendered pages of the sandbox bank; every refusal is a page too (the payer is a person). */
@Injectable()
export class SandboxBankPages {
  constructor(private readonly bank: SandboxBankService) {}

  async authorization(t: I18n, recurrenceId: string): Promise<Html> {
    return this.page(t, async () => {
      const r = await this.bank.get(recurrenceId);
      return authorizationPage(t, r, this.bank.windowClosed(r));
    });
  }

  async decide(t: I18n, recurrenceId: string, decision: unknown): Promise<Html> {
    return this.page(
      t,
      async () => {
        if (decision !== 'approve' && decision !== 'reject') return messagePage(t, t.m.rec_unknownChoice, t.m.rec_chooseText);
        const r = decision === 'approve' ? await this.bank.approve(recurrenceId) : await this.bank.reject(recurrenceId);
        return authorizationPage(t, r, false);
      },
      recurrenceId,
    );
  }

  async payer(t: I18n, recurrenceId: string): Promise<Html> {
    return this.page(t, async () => payerPage(t, await this.bank.get(recurrenceId)));
  }

  async payerCancel(t: I18n, recurrenceId: string): Promise<Html> {
    return this.page(t, async () => payerPage(t, await this.bank.payerCancel(recurrenceId)), recurrenceId);
  }

  private async page(t: I18n, render: () => Promise<string>, recurrenceId?: string): Promise<Html> {
    try {
      return { status: 200, html: await render() };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      if (e.code === 'authorization_expired' && recurrenceId) {
        const r = await this.bank.get(recurrenceId);
        return { status: e.status, html: authorizationPage(t, r, true) };
      }
      if (e.code === 'sandbox_recurrence_not_found') return { status: 404, html: messagePage(t, t.m.rec_notFound, t.m.rec_notFoundText) };
      if (recurrenceId) {
        const r = await this.bank.get(recurrenceId).catch(() => null);
        if (r) return { status: e.status, html: authorizationPage(t, r, false) };
      }
      return { status: e.status, html: messagePage(t, t.m.rec_notPossible, e.message) };
    }
  }
}

import { Injectable } from '@nestjs/common';
import { AppError } from '../../platform/errors/app-error';
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

  async authorization(recurrenceId: string): Promise<Html> {
    return this.page(async () => {
      const r = await this.bank.get(recurrenceId);
      return authorizationPage(r, this.bank.windowClosed(r));
    });
  }

  async decide(recurrenceId: string, decision: unknown): Promise<Html> {
    return this.page(async () => {
      if (decision !== 'approve' && decision !== 'reject') return messagePage('Unknown choice', 'Choose Authorize or Refuse.');
      const r = decision === 'approve' ? await this.bank.approve(recurrenceId) : await this.bank.reject(recurrenceId);
      return authorizationPage(r, false);
    }, recurrenceId);
  }

  async payer(recurrenceId: string): Promise<Html> {
    return this.page(async () => payerPage(await this.bank.get(recurrenceId)));
  }

  async payerCancel(recurrenceId: string): Promise<Html> {
    return this.page(async () => payerPage(await this.bank.payerCancel(recurrenceId)), recurrenceId);
  }

  private async page(render: () => Promise<string>, recurrenceId?: string): Promise<Html> {
    try {
      return { status: 200, html: await render() };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      if (e.code === 'authorization_expired' && recurrenceId) {
        const r = await this.bank.get(recurrenceId);
        return { status: e.status, html: authorizationPage(r, true) };
      }
      if (e.code === 'sandbox_recurrence_not_found') return { status: 404, html: messagePage('Not found', 'This bank holds no such automatic Pix request.') };
      if (recurrenceId) {
        const r = await this.bank.get(recurrenceId).catch(() => null);
        if (r) return { status: e.status, html: authorizationPage(r, false) };
      }
      return { status: e.status, html: messagePage('Not possible', e.message) };
    }
  }
}

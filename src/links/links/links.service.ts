import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { page, Page } from '../../../kernel/platform/pagination/pagination';
import { randomChars } from '../../../kernel/common/random-ids';

import { planStatusChange } from '../domain/link.state-machine';
import { CreatedLinkDto, CreateLinkDto, LinkDto, LinkListQueryDto, UpdateLinkDto } from '../dto/link.dto';
import { LinkDetailDto } from '../dto/payment.dto';
import { optionToApi, quoteAll } from '../fees/fee-quotes';
import { LinkErrors } from '../links.errors';
import { MerchantsService } from '../merchants/merchants.service';
import { assertPriceable, buildSettings } from './link-settings';
import { LinkLifecycle } from './link-lifecycle';
import { eventToDto } from './link.mapper';
import { LinkViews } from './link-views';
import { Link, LinkSettings } from './link.types';
import { LinksRepository } from './links.repository';
import { isUniqueViolation, transaction } from '../../../kernel/platform/database/sql';

const SLUG_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function newSlug(length = 10): string {
  return randomChars(SLUG_ALPHABET, length);
}

/** Create, read, list, change and (de)activate payment links; every query scoped by tenant. */
@Injectable()
export class LinksService {
  constructor(
    private readonly ds: DataSource,
    private readonly links: LinksRepository,
    private readonly merchants: MerchantsService,
    private readonly lifecycle: LinkLifecycle,
    private readonly clock: Clock,
    private readonly views: LinkViews,
  ) {}

  async create(tenantId: string, dto: CreateLinkDto): Promise<CreatedLinkDto> {
    const owner = await this.merchants.owner(tenantId);
    const now = this.clock.now();
    const s = buildSettings(dto, owner.id, now);
    await this.merchants.assertKnown(
      tenantId,
      s.splits.map((x) => x.merchantId),
    );
    const table = this.merchants.feeTable(owner);
    if (s.amountCents !== null) assertPriceable(s, table, owner.id, s.amountCents);
    for (let attempt = 0; ; attempt++) {
      try {
        const link = await transaction(this.ds, async (m) => {
          const l = await this.links.insert(m, {
            id: randomUUID(),
            tenantId,
            slug: newSlug(),
            ownerMerchantId: owner.id,
            status: 'ACTIVE',
            createdAt: now,
            updatedAt: now,
            ...s,
          });
          await this.links.addEvent(m, l.id, 'LINK_CREATED', { status: 'ACTIVE' }, now);
          return l;
        });
        const feeSimulation =
          s.amountCents === null
            ? null
            : {
                amount: s.amountCents / 100,
                passFee: s.passFee,
                merchantId: owner.id,
                options: quoteAll(table, s.amountCents, s.paymentMethods, s.maxInstallments, s.passFee).map(optionToApi),
              };
        return { ...this.toDto(link), feeSimulation };
      } catch (e: any) {
        if (isUniqueViolation(e, 'links_slug_uq') && attempt < 3) continue;
        throw e;
      }
    }
  }

  async list(tenantId: string, q: LinkListQueryDto): Promise<Page<LinkDto>> {
    const [items, total] = await this.links.list(tenantId, q.status, q.limit, q.offset);
    const fresh = await Promise.all(items.map((l) => this.lifecycle.fresh(l)));
    return page(await this.views.links(fresh), total, q);
  }

  async detail(tenantId: string, id: string): Promise<LinkDetailDto> {
    let row = await this.links.detail(tenantId, id);
    if (!row) throw notFound();
    if (this.lifecycle.isDueToExpire(row.link)) {
      await this.lifecycle.fresh(row.link);
      row = (await this.links.detail(tenantId, id))!;
    }
    const [link] = await this.views.links([row.link]);
    return {
      ...link,
      payments: row.payments === null ? null : await this.views.payments(row.payments),
      events: row.events.map(eventToDto),
    };
  }

  async update(tenantId: string, id: string, dto: UpdateLinkDto): Promise<LinkDto> {
    const current = await this.lifecycle.fresh(await this.mustFind(tenantId, id));
    if (current.status === 'EXPIRED' || current.status === 'EXHAUSTED') {
      throw LinkErrors.error('invalid_transition', `An ${current.status} link cannot be changed`);
    }
    const now = this.clock.now();
    const merged = { ...settingsToInput(current), ...definedOnly(dto) } as CreateLinkDto;
    // Fixing the amount clears the open-amount bounds unless the PATCH sets them itself.
    if (dto.amount !== undefined && dto.amount !== null) {
      if (dto.minAmount === undefined) merged.minAmount = null;
      if (dto.maxAmount === undefined) merged.maxAmount = null;
    }
    const s = buildSettings(merged, current.ownerMerchantId, now);
    await this.merchants.assertKnown(
      tenantId,
      s.splits.map((x) => x.merchantId),
    );
    if (s.amountCents !== null) {
      const owner = await this.merchants.get(tenantId, current.ownerMerchantId);
      assertPriceable(s, this.merchants.feeTable(owner), owner.id, s.amountCents);
    }
    const changed = Object.keys(definedOnly(dto));
    const link = await transaction(this.ds, async (m) => {
      const locked = (await this.links.lock(m, id))!;
      let l = await this.links.updateSettings(m, id, s, now);
      await this.links.addEvent(m, id, 'LINK_UPDATED', { fields: changed }, now);
      if (await this.lifecycle.exhaustIfFullIn(m, { ...l, paidCount: locked.paidCount })) l = { ...l, status: 'EXHAUSTED' };
      return l;
    });
    return this.toDto(link);
  }

  async changeStatus(tenantId: string, id: string, requested: string): Promise<LinkDto> {
    const current = await this.lifecycle.fresh(await this.mustFind(tenantId, id));
    const plan = planStatusChange(current.status, requested); // a LinkStateError names the field; the filter answers it
    if (plan.kind === 'noop') return this.toDto(current);
    const { trigger, from, to } = plan;
    const now = this.clock.now();
    const link = await transaction(this.ds, async (m) => {
      if (!(await this.links.transition(m, id, [from], to, now))) {
        throw LinkErrors.error('invalid_transition', 'The link changed meanwhile; read it again');
      }
      await this.links.addEvent(m, id, trigger === 'ACTIVATE' ? 'LINK_ACTIVATED' : 'LINK_DEACTIVATED', { from, to }, now);
      const l = (await this.links.lock(m, id))!;
      // Activating a link that filled up or expired while paused ends it at once.
      if (this.lifecycle.isDueToExpire({ ...l, status: to }, now)) {
        await this.lifecycle.expireIn(m, id);
        return { ...l, status: 'EXPIRED' as const };
      }
      if (await this.lifecycle.exhaustIfFullIn(m, { ...l, status: to })) return { ...l, status: 'EXHAUSTED' as const };
      return l;
    });
    return this.toDto(link);
  }

  private async mustFind(tenantId: string, id: string): Promise<Link> {
    const l = await this.links.find(tenantId, id);
    if (!l) throw notFound();
    return l;
  }

  /** A link just created or changed: nothing of it went back, or its totals are read. */
  private toDto(l: Link): LinkDto {
    return this.views.link(l, undefined);
  }
}

function notFound() {
  return LinkErrors.error('link_not_found', 'No such payment link for this tenant');
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Current settings in request form, so a PATCH is validated exactly like a create. */
function settingsToInput(l: LinkSettings): CreateLinkDto {
  return {
    name: l.name,
    description: l.description,
    amount: l.amountCents === null ? null : l.amountCents / 100,
    minAmount: l.minAmountCents === null ? null : l.minAmountCents / 100,
    maxAmount: l.maxAmountCents === null ? null : l.maxAmountCents / 100,
    paymentMethods: l.paymentMethods,
    maxInstallments: l.maxInstallments,
    passFee: l.passFee,
    splits: l.splits.map((s) => ({
      merchantId: s.merchantId,
      percentage: s.percentage,
      amount: s.amountCents === undefined ? undefined : s.amountCents / 100,
    })),
    maxUses: l.maxUses,
    checkoutAttemptsPerMinute: l.checkoutAttemptsPerMinute,
    expiresAt: l.expiresAt ? l.expiresAt.toISOString() : null,
    notifyEmail: l.notifyEmail,
    actor: l.actorEmail ? { email: l.actorEmail } : null,
  };
}

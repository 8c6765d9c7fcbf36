import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TenantEntity, TenantStatus } from './tenant.entity';

export interface NewTenant {
  name: string;
  allowedCidrs: string[];
  rateLimitPerMinute: number;
}

export interface TenantChanges {
  name?: string;
  allowedCidrs?: string[];
  rateLimitPerMinute?: number;
  status?: TenantStatus;
}

/** Port: the tenants store. Bound to the TypeORM adapter below. */
export abstract class TenantsRepository {
  abstract create(t: NewTenant): Promise<TenantEntity>;
  abstract findById(id: string): Promise<TenantEntity | null>;
  abstract list(limit: number, offset: number): Promise<[TenantEntity[], number]>;
  abstract update(id: string, changes: TenantChanges): Promise<TenantEntity | null>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

@Injectable()
export class SqlTenantsRepository extends TenantsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  private get repo() {
    return this.ds.getRepository(TenantEntity);
  }

  async create(t: NewTenant): Promise<TenantEntity> {
    // Operator path, not hot: save() returns the row with its defaults filled in.
    return this.repo.save(this.repo.create({ ...t, status: 'ACTIVE' }));
  }

  findById(id: string): Promise<TenantEntity | null> {
    return isUuid(id) ? this.repo.findOneBy({ id }) : Promise.resolve(null);
  }

  list(limit: number, offset: number): Promise<[TenantEntity[], number]> {
    return this.repo.findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, take: limit, skip: offset });
  }

  async update(id: string, changes: TenantChanges): Promise<TenantEntity | null> {
    if (!isUuid(id)) return null;
    const res = await this.repo.update({ id }, changes);
    return res.affected ? this.repo.findOneBy({ id }) : null;
  }
}

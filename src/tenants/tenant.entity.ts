import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const TENANT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

// The checks migrations/1763600000000-Platform.ts made, named as PostgreSQL named them, so that
// `npm run migration:generate` finds no difference on an up-to-date database.
@Entity({ name: 'tenants' })
@Check('tenants_rate_limit_per_minute_check', 'rate_limit_per_minute > 0')
@Check('tenants_status_check', `status IN ('ACTIVE', 'SUSPENDED')`)
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'allowed_cidrs', type: 'text', array: true, default: () => "'{}'" })
  allowedCidrs: string[];

  @Column({ name: 'rate_limit_per_minute', type: 'int', default: 100 })
  rateLimitPerMinute: number;

  @Column({ type: 'text', default: 'ACTIVE' })
  status: TenantStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

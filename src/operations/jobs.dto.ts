import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export class DeadJobsQueryDto {
  @ApiPropertyOptional({ description: 'Only this kind (e.g. `adyen.notification`)', example: 'adyen.notification' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  kind?: string;
}

export class JobIdParamDto {
  @ApiProperty({ description: 'The job id', example: '42' })
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'jobId must be a positive integer' })
  jobId!: string;
}

export class JobDto {
  @ApiProperty({ example: '42' }) id!: string;
  @ApiProperty({ description: 'What the job does', example: 'adyen.notification' }) kind!: string;
  @ApiProperty({ description: 'Its key within the kind (for an inbox item, the item id)', example: '17' }) key!: string;
  @ApiProperty({ enum: ['pending', 'done', 'dead'], example: 'dead' }) status!: 'pending' | 'done' | 'dead';
  @ApiProperty({ description: 'Failed tries', example: 8 }) attempts!: number;
  @ApiProperty({ description: 'When it runs next (pending) or was last due', example: '2026-12-07 20:00:00+00' }) runAt!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The last failure', example: 'defensePeriodEndsAt is not a date' })
  lastError!: string | null;
  @ApiProperty({ example: '2026-12-07 19:59:00+00' }) createdAt!: string;
}

export class JobListDto {
  @ApiProperty({ type: [JobDto] }) items!: JobDto[];
}

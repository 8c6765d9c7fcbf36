import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { MAX_ADVANCE_DAYS, SandboxClock } from './sandbox-clock';
import { SandboxEnabledGuard } from './sandbox-enabled.guard';

export class AdvanceClockDto {
  @ApiProperty({ minimum: 1, maximum: MAX_ADVANCE_DAYS, example: 3 })
  @IsInt()
  @Min(1)
  @Max(MAX_ADVANCE_DAYS)
  days: number;
}

class ClockDto {
  @ApiProperty({ example: '2026-12-01T15:00:00.000Z' })
  now: string;
  @ApiProperty({ description: 'Calendar date in America/Sao_Paulo', example: '2026-12-01' })
  today: string;
}

class AdvancedClockDto extends ClockDto {
  @ApiProperty({ example: 3 })
  daysAdvanced: number;
}

@ApiTags('sandbox')
@UseGuards(SandboxEnabledGuard)
@ApiErrors([404, 'sandbox_disabled', 'The sandbox is disabled'])
@Controller('sandbox/clock')
export class SandboxClockController {
  constructor(private readonly clock: SandboxClock) {}

  @Get()
  @ApiOperation({ operationId: 'sandboxGetClock', summary: 'The test clock: now and today (America/Sao_Paulo)' })
  @ApiOkResponse({ type: ClockDto })
  get(): ClockDto {
    return this.clock.view();
  }

  @Post('advance')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxAdvanceClock',
    summary: 'Move the clock forward day by day, running the billing engine, settlements and expiries of each day before answering',
  })
  @ApiOkResponse({ type: AdvancedClockDto })
  @ApiErrors(400, [502, 'test_clock_service_failed', 'The service did not run its half of a day (unreachable, or its test clock is off)'])
  advance(@Body() dto: AdvanceClockDto): Promise<AdvancedClockDto> {
    return this.clock.advance(dto.days);
  }

  @Post('reset')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxResetClock',
    summary: 'Put the clock back at real time (offset 0), and the service’s with it; runs no day and undoes nothing',
    description:
      'Both clocks read real time again. Rows dated ahead while the clock was ahead (billings, charges and links expiring, webhook retries) keep their dates: they come due when real time, or the clock advanced again, reaches them. Safe to repeat.',
  })
  @ApiOkResponse({ type: ClockDto })
  @ApiErrors([
    502,
    'test_clock_service_failed',
    'The service did not take the reset (unreachable, or its test clock is off); the sandbox’s clock is reset',
  ])
  reset(): Promise<ClockDto> {
    return this.clock.reset();
  }
}

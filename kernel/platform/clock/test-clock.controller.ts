import { timingSafeEqual } from 'node:crypto';
import { Body, CanActivate, Controller, ExecutionContext, HttpCode, Injectable, Module, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import {
  TEST_CLOCK_DAYS_PATH,
  TEST_CLOCK_RESET_PATH,
  TEST_CLOCK_SECRET_HEADER,
  TestClockDay,
  TestClockDayAnswer,
} from '../../common/protocols/test-clock';
import { PlatformErrors } from '../errors/app-error';
import { ApiErrors } from '../openapi/error-envelope.dto';
import { Clock, DayPassedSignal, DayPhase } from './clock';
import { ClockSync } from './clock-sync.service';
import { TestClockConfig } from './test-clock.config';
import { httpRequest } from '../http/http-context';
import type { FastifyRequest } from 'fastify';

/** Off (404) unless the test clock is on; then the caller must show TEST_CLOCK_SECRET. */
@Injectable()
class TestClockGuard implements CanActivate {
  constructor(private readonly config: TestClockConfig) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (!this.config.enabled) throw PlatformErrors.error('not_found', 'The test clock is off (TEST_CLOCK_ENABLED)');
    const given = Buffer.from(String(httpRequest<FastifyRequest>(ctx).headers[TEST_CLOCK_SECRET_HEADER] ?? ''));
    const expected = Buffer.from(this.config.secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw PlatformErrors.error('unauthorized', `${TEST_CLOCK_SECRET_HEADER} is missing or wrong`);
    return true;
  }
}

class TestClockDayDto implements TestClockDay {
  @ApiProperty({ description: "The clock's offset from real time after the move, in ms (absolute)", example: 259200000 })
  @IsInt()
  @Min(0)
  @Max(400 * 86_400_000)
  offsetMs: number;

  @ApiProperty({ enum: ['start', 'end'], description: "Which half of the service's day to run for the new date" })
  @IsIn(['start', 'end'])
  phase: DayPhase;
}

class TestClockDayAnswerDto implements TestClockDayAnswer {
  @ApiProperty({ example: '2026-12-01T15:00:00.000Z' })
  now: string;
  @ApiProperty({ description: 'Calendar date in America/Sao_Paulo', example: '2026-12-01' })
  today: string;
}

@ApiTags('test-clock')
@ApiHeader({ name: TEST_CLOCK_SECRET_HEADER, required: true, description: 'TEST_CLOCK_SECRET (the sandbox app sends it)' })
@ApiErrors([401, 'unauthorized', 'The secret is missing or wrong'], [404, 'not_found', 'The test clock is off'])
@UseGuards(TestClockGuard)
@Controller()
class TestClockController {
  constructor(
    private readonly clock: Clock,
    private readonly sync: ClockSync,
    private readonly dayPassed: DayPassedSignal,
  ) {}

  @Post(TEST_CLOCK_DAYS_PATH)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testClockDay',
    summary: "The sandbox app's test clock moved a day: set the service's time and run one half of that day's timers",
    description:
      'Called by the sandbox app (`POST /sandbox/clock/advance` there) twice a day it moves: `start` runs the billing engine, `end` the checks of what the bank settled and link expiry.',
  })
  @ApiOkResponse({ type: TestClockDayAnswerDto })
  @ApiErrors(400)
  async day(@Body() dto: TestClockDayDto): Promise<TestClockDayAnswerDto> {
    if (this.clock.offsetMs() !== dto.offsetMs) await this.sync.set(dto.offsetMs);
    await this.dayPassed.raise(this.clock.today(), dto.phase);
    return { now: this.clock.now().toISOString(), today: this.clock.today() };
  }

  @Post(TEST_CLOCK_RESET_PATH)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'testClockReset',
    summary: "The sandbox app's test clock went back to real time: set the service's offset to 0, running no day's work",
    description:
      'Called by the sandbox app (`POST /sandbox/clock/reset` there). Rows already dated ahead (billings, expiries, retries) keep their dates and come due again when real time, or the clock, reaches them.',
  })
  @ApiOkResponse({ type: TestClockDayAnswerDto })
  async reset(): Promise<TestClockDayAnswerDto> {
    await this.sync.set(0);
    return { now: this.clock.now().toISOString(), today: this.clock.today() };
  }
}

/** The service's side of the test clock (the sandbox app drives it over HTTP). */
@Module({ controllers: [TestClockController], providers: [TestClockGuard] })
export class TestClockModule {}

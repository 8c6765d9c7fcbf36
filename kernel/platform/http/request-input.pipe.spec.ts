import {
  ArgumentMetadata,
  BadRequestException,
  Body,
  Controller,
  createParamDecorator,
  Get,
  Module,
  Param,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { bindInputPipe, RequestInputPipe } from './request-input.pipe';

/** What each pipe saw, in order: `first:body`, `then:query`… */
const seen: string[] = [];
const recorder = (name: string) => ({
  transform(value: unknown, meta: ArgumentMetadata) {
    seen.push(`${name}:${meta.type}`);
    if (value && typeof value === 'object' && (value as { bad?: unknown }).bad) throw new BadRequestException('bad input');
    return value;
  },
});

const Tenant = createParamDecorator(() => 'tenant-1');

@Controller('things')
class ThingsController {
  @Get(':id')
  get(@Tenant() tenant: string, @Param('id') id: string, @Req() _req: unknown, @Query('q') q?: string) {
    return { tenant, id, q: q ?? null };
  }

  @Post()
  create(@Body() body: Record<string, unknown>) {
    return body;
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

async function appWith(pipe: RequestInputPipe): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
  expect(bindInputPipe(app, pipe)).toBe(2); // the body of create, the query of get
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe('bindInputPipe', () => {
  let app: NestFastifyApplication;
  afterEach(async () => {
    await app?.close();
    seen.length = 0;
  });

  it('runs the input pipes on the body and the query string, both in order, and not on path parameters or custom decorators', async () => {
    app = await appWith(new RequestInputPipe(recorder('first'), recorder('then')));
    const get = await app.inject({ method: 'GET', url: '/things/abc?q=x' });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({ tenant: 'tenant-1', id: 'abc', q: 'x' });
    expect(seen).toEqual(['first:query', 'then:query']);

    seen.length = 0;
    const post = await app.inject({ method: 'POST', url: '/things', payload: { bad: true } });
    expect(post.statusCode).toBe(400);
    expect(seen).toEqual(['first:body']); // refused by the first: validation never saw it
  });

  it('keeps one pipe per parameter when a second app of the process binds again (the last one runs)', async () => {
    const a = await appWith(new RequestInputPipe(recorder('old'), recorder('old')));
    await a.close();
    app = await appWith(new RequestInputPipe(recorder('first'), recorder('then')));
    await app.inject({ method: 'POST', url: '/things', payload: { ok: true } });
    expect(seen).toEqual(['first:body', 'then:body']);
  });
});

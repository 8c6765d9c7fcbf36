// The framework floor for GET /v1/banking/accounts/{id}/limits: an otherwise empty NestJS 11 +
// Fastify application (the versions the service runs) with one controller, one guard doing the
// same bearer check as the bare server and the service (the service's own HS256 codec, with its
// store of verified tokens: ./hs256-check), and the same JSON. No hooks, no pipes, no
// filters, no database. What the service pays beyond this is ours; what this pays beyond the
// bare node:http server is the framework's.
require('reflect-metadata');
const { Controller, Get, Injectable, Module, Param, UseGuards } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { hs256Checker } = require('./hs256-check');

const verify = hs256Checker(process.env.JWT_SIGNING_KEYS);

class TokenGuard {
  canActivate(ctx) {
    const req = ctx.switchToHttp().getRequest();
    req.claims = verify(req.headers.authorization);
    return req.claims !== null && req.params.id === req.claims.tenant;
  }
}
Injectable()(TokenGuard);

class LimitsController {
  get(id) {
    return {
      accountId: id,
      tenantId: id,
      rateLimit: { limit: 1000000000, remaining: 999999999, resetSeconds: 30, windowSeconds: 60 },
      pix: { perTransaction: 1000000, daytime: 5000000, nighttime: 100000 },
    };
  }
}
// The decorators a TypeScript controller would carry, applied by hand (this file is plain JS).
Param('id')(LimitsController.prototype, 'get', 0);
Reflect.defineMetadata('design:paramtypes', [String], LimitsController.prototype, 'get');
Get(':id/limits')(LimitsController.prototype, 'get', Object.getOwnPropertyDescriptor(LimitsController.prototype, 'get'));
UseGuards(TokenGuard)(LimitsController);
Controller('v1/banking/accounts')(LimitsController);

class FloorModule {}
Module({ controllers: [LimitsController], providers: [TokenGuard] })(FloorModule);

(async () => {
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  app.getHttpAdapter().getInstance().get('/__ready', (_req, reply) => reply.send('ok'));
  await app.listen(Number(process.env.PORT), '127.0.0.1');
})();

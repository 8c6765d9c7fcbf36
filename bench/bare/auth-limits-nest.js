// The framework floor for GET /v1/banking/accounts/{id}/limits: an otherwise empty NestJS 11 +
// Fastify application (the versions the service runs) with one controller, one guard doing the
// gateway's work as the bare server does (./gateway-check: the service's own HS256 codec and
// store of verified tokens, allow-list, revocation, the per-tenant count), the RateLimit-*
// headers and the same JSON. No hooks, no pipes, no filters, no database. What the service pays
// beyond this is ours; what this pays beyond the bare node:http server is the framework's.
require('reflect-metadata');
const { Controller, Get, Injectable, Module, NotFoundException, Param, Req, UseGuards } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { gatewayChecker, limitsOf } = require('./gateway-check');

const gate = gatewayChecker(process.env.JWT_SIGNING_KEYS);
const limits = limitsOf();

class TokenGuard {
  canActivate(ctx) {
    const http = ctx.switchToHttp();
    const req = http.getRequest();
    req.gate = gate(req.headers.authorization, req.socket.remoteAddress);
    if (req.gate.headers) http.getResponse().headers(req.gate.headers);
    return req.gate.status === 200;
  }
}
Injectable()(TokenGuard);

class LimitsController {
  get(id, req) {
    const doc = limits(req.gate, id);
    if (!doc) throw new NotFoundException();
    return doc;
  }
}
// The decorators a TypeScript controller would carry, applied by hand (this file is plain JS).
Param('id')(LimitsController.prototype, 'get', 0);
Req()(LimitsController.prototype, 'get', 1);
Reflect.defineMetadata('design:paramtypes', [String, Object], LimitsController.prototype, 'get');
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

// The framework floor for GET /v1/banking/accounts/{id}/limits: an otherwise empty NestJS 11 +
// Fastify application (the versions the service runs) with one controller, one guard doing the
// gateway's work as the bare server does (./gateway-check: the service's own HS256 codec and
// store of verified tokens, its TTL cache for the tenant's record, the key's revocation and the
// account's Pix limits, allow-list, the per-tenant count), the RateLimit-* headers and the same
// JSON. No hooks, no pipes, no filters, no database. What the service pays beyond this is ours;
// what this pays beyond the bare node:http server is the framework's.
require('reflect-metadata');
const { Controller, Get, Injectable, Module, NotFoundException, Param, Req, UseGuards } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { gatewayChecker, limitsOf } = require('./gateway-check');

const gate = gatewayChecker(process.env.JWT_SIGNING_KEYS);
const limits = limitsOf();

// The request and the reply as Nest passes them (arguments 0 and 1), as the service's guards read
// them: `ctx.switchToHttp()` would cost the floor work the service does not do.
class TokenGuard {
  canActivate(ctx) {
    const req = ctx.getArgByIndex(0);
    const g = gate(req.headers.authorization, req.socket.remoteAddress);
    return g instanceof Promise ? g.then((x) => passed(x, req, ctx.getArgByIndex(1))) : passed(g, req, ctx.getArgByIndex(1));
  }
}
function passed(g, req, reply) {
  req.gate = g;
  if (g.headers) reply.headers(g.headers);
  return g.status === 200;
}
Injectable()(TokenGuard);

class LimitsController {
  get(id, req) {
    const doc = limits(req.gate, id);
    return doc instanceof Promise ? doc.then(found) : found(doc);
  }
}
function found(doc) {
  if (!doc) throw new NotFoundException();
  return doc;
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

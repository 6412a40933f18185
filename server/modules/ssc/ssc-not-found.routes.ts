import type { FastifyPluginAsync } from 'fastify';
import { SscFailure } from './ssc-errors';

// Any other path under /api/ssc answers 404 in the standard's failure shape ({ status: 'FAILURE',
// problemDetails }), as every SSC answer does, instead of Baywise's generic error (issue 24). Its
// own plugin, without the API-key hook: an unknown path is unknown with or without a key.

const sscNotFoundRoutes: FastifyPluginAsync = async (app) => {
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    const failure = new SscFailure(404, [{ title: 'Not Found', detail: `No SSC operation at ${request.method} ${path}: see /api/ssc/openapi.json` }]);
    return reply.code(404).send(failure.body());
  });
};

export default sscNotFoundRoutes;

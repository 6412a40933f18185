import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../app';

const routes: FastifyPluginAsyncZod<ModuleOptions> = async () => {};

export default routes;

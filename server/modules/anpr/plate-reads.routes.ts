import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { plateReadsContract as contract } from '../../../domain/contract/plate-reads.contract';
import type { ModuleOptions } from '../../context';
import { badRequest, forbidden } from '../../plugins/errors';
import { siteScope, type SiteScope } from '../../plugins/site-scope';
import { closePlateOcrIfLoaded } from './plate-ocr-loader';
import { platesInImage, readMultipartImage } from './plate-photo';
import { ignorePlateRead, listPlateReads, recordPlateRead, resolvePlateRead } from './plate-reads.service';

// /api/sites/:siteId/plate-reads… (issue 10): plates read by staff (typed, photo, device camera) —
// inside the site scope. Any dock staff of the site (security included) may send reads and see
// them; resolving or ignoring a read is the dockmaster's (and org admin's) call.

function requireDockmaster(scope: SiteScope): void {
  if (scope.role === 'security') throw forbidden('Only dockmasters and organization admins can resolve plate reads');
}

const plateReadRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.addHook('onClose', closePlateOcrIfLoaded);

  const gateActorOf = (scope: SiteScope, ip: string) => ({ role: scope.role, auditActor: scope.auditActor, ip });

  app.post(
    '/plate-reads',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/plate-reads'],
        tags: ['plate reads'],
        summary: 'A plate typed or read at the gate: stored, matched with the expected and on-site vehicles (repeats within 60 s are one read)',
      },
    },
    async (request) => {
      const scope = siteScope(request);
      const { plate, source, confidence } = request.body;
      return recordPlateRead(
        ctx,
        { orgId: scope.orgId, siteId: scope.siteId, reads: [plate], source, confidence, actorId: scope.userId },
        gateActorOf(scope, request.ip),
      );
    },
  );

  app.post(
    '/plate-reads/photo',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/plate-reads/photo'],
        tags: ['plate reads'],
        summary: 'A photo of a plate (multipart, one PNG, JPEG or WebP image ≤ 10 MB in the field "photo"), read on the server',
      },
    },
    async (request) => {
      const scope = siteScope(request);
      if (!request.isMultipart()) throw badRequest('Send the photo as a multipart form (Content-Type: multipart/form-data) with one file in the field "photo"');
      const reads = await platesInImage(await readMultipartImage(request));
      return recordPlateRead(ctx, { orgId: scope.orgId, siteId: scope.siteId, reads, source: 'photo', actorId: scope.userId }, gateActorOf(scope, request.ip));
    },
  );

  app.get(
    '/plate-reads',
    {
      schema: {
        ...contract['GET /api/sites/:siteId/plate-reads'],
        tags: ['plate reads'],
        summary: "The site's recent reads to resolve (unmatched and ambiguous unless a status is given), newest first, 20 a page",
      },
    },
    async (request) => {
      const scope = siteScope(request);
      return listPlateReads(ctx, scope.orgId, scope.siteId, request.query.status, request.query.page);
    },
  );

  app.post(
    '/plate-reads/:id/resolve',
    {
      schema: {
        ...contract['POST /api/sites/:siteId/plate-reads/:id/resolve'],
        tags: ['plate reads'],
        summary: 'Link an unmatched or ambiguous read to a booking of the site',
      },
    },
    async (request) => {
      const scope = siteScope(request);
      requireDockmaster(scope);
      return resolvePlateRead(
        ctx,
        { orgId: scope.orgId, siteId: scope.siteId, readId: request.params.id, actor: scope.auditActor, ip: request.ip },
        request.body.bookingId,
      );
    },
  );

  app.post(
    '/plate-reads/:id/ignore',
    {
      schema: { ...contract['POST /api/sites/:siteId/plate-reads/:id/ignore'], tags: ['plate reads'], summary: 'Mark an unmatched or ambiguous read as needing no action' },
    },
    async (request) => {
      const scope = siteScope(request);
      requireDockmaster(scope);
      return ignorePlateRead(ctx, { orgId: scope.orgId, siteId: scope.siteId, readId: request.params.id, actor: scope.auditActor, ip: request.ip });
    },
  );
};

export default plateReadRoutes;

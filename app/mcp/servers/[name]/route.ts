// POST · GET · DELETE /mcp/servers/{name} — the MCP gateway for one server, its tools' own names
import { handleGatewayRequest } from "@/lib/gateway/handler";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

const handle = async (req: Request, { params }: Context) =>
  handleGatewayRequest(req, { scope: { server: (await params).name } });

export { handle as DELETE, handle as GET, handle as POST };

// POST · GET · DELETE /mcp — the MCP gateway: every granted tool of every server, as <server>__<tool>
import { handleGatewayRequest } from "@/lib/gateway/handler";

export const dynamic = "force-dynamic";

const handle = (req: Request) => handleGatewayRequest(req, { scope: "all" });

export { handle as DELETE, handle as GET, handle as POST };

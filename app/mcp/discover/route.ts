// POST · GET · DELETE /mcp/discover — the MCP gateway in discovery mode: every granted tool, found
// through switchboard__search_tools / describe_tool / call_tool instead of listed
import { handleGatewayRequest } from "@/lib/gateway/handler";

export const dynamic = "force-dynamic";

const handle = (req: Request) => handleGatewayRequest(req, { scope: "discover" });

export { handle as DELETE, handle as GET, handle as POST };

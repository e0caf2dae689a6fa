import type { Command } from "commander";
import { type ApiClient, segment } from "../api-client";
import { contextOf, withJsonOption } from "../context";
import { CliError, usageError } from "../errors";
import { formatTime, note, print, printJson, renderTable } from "../output";
import { confirmedOrYes } from "../prompt";
import type { InvitationWire, MemberWire } from "../wire-types";

const roles = ["admin", "approver", "viewer"] as const;

/** The workspace's people and their roles (Settings → Members). */
export function registerMembers(program: Command): void {
  const members = program
    .command("members")
    .description("the workspace's people: roles, invitations, removal");

  withJsonOption(members.command("list").description("members and their roles, oldest first")).action(
    async (_options, command: Command) => {
      const { client, json, colors } = contextOf(command);
      const rows = await listMembers(client);
      if (json) return printJson(rows);
      if (rows.length === 0)
        return print("No members yet. Invite someone with switchboard members invite --role admin.");
      print(
        renderTable(
          rows,
          [
            { header: "Name", value: (m) => m.name },
            { header: "Email", value: (m) => m.email },
            { header: "Role", value: (m) => m.role },
            { header: "Joined", value: (m) => formatTime(m.joinedAt) },
            {
              header: "Last sign-in",
              value: (m) => (m.lastSignedInAt ? formatTime(m.lastSignedInAt) : "never"),
            },
          ],
          colors,
        ),
      );
    },
  );

  withJsonOption(
    members
      .command("invite")
      .description("make an invitation link for one person (valid 7 days; no email is sent)")
      .requiredOption("--role <role>", "admin, approver or viewer"),
  ).action(async (options: { role: string }, command: Command) => {
    const { client, json } = contextOf(command);
    const body = await client.post<InvitationWire & { url: string }>("/api/v1/invitations", {
      role: roleOf(options.role),
    });
    if (json) return printJson(body);
    print(body.url);
    note(
      `Send this link to the person to invite as ${body.role}; it works once, until ${formatTime(body.expiresAt)}. ` +
        `To revoke it: switchboard members uninvite ${body.id}`,
    );
  });

  withJsonOption(
    members.command("invitations").description("invitation links not yet used, revoked or expired"),
  ).action(async (_options, command: Command) => {
    const { client, json, colors } = contextOf(command);
    const rows = (await client.get<{ invitations: InvitationWire[] }>("/api/v1/invitations")).invitations;
    if (json) return printJson(rows);
    if (rows.length === 0) return print("No pending invitations.");
    print(
      renderTable(
        rows,
        [
          { header: "Id", value: (i) => i.id },
          { header: "Role", value: (i) => i.role },
          { header: "Invited by", value: (i) => i.invitedBy ?? "an API key, or a removed account" },
          { header: "Expires", value: (i) => formatTime(i.expiresAt) },
        ],
        colors,
      ),
    );
  });

  members
    .command("uninvite")
    .description("revoke a pending invitation: its link stops working at once")
    .argument("<id>", "the invitation's id (see members invitations)")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (id: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      if (!(await confirmedOrYes(`Revoke the invitation ${id}?`, options))) return print("Nothing revoked.");
      await client.delete(`/api/v1/invitations/${segment(id)}`);
      print(`Revoked the invitation ${id}.`);
    });

  withJsonOption(
    members
      .command("role")
      .description("change a member's role (a workspace keeps at least one admin)")
      .argument("<member>", "email or user id")
      .argument("<role>", "admin, approver or viewer"),
  ).action(async (ref: string, role: string, _options: unknown, command: Command) => {
    const { client, json } = contextOf(command);
    const member = await findMember(client, ref);
    const body = await client.patch<{ member: MemberWire }>(`/api/v1/members/${segment(member.userId)}`, {
      role: roleOf(role),
    });
    if (json) return printJson(body.member);
    print(`${body.member.email} is now ${body.member.role}.`);
  });

  members
    .command("remove")
    .description("remove a member from the workspace (their account stays; their sessions lose access)")
    .argument("<member>", "email or user id")
    .option("-y, --yes", "do not ask for confirmation")
    .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const member = await findMember(client, ref);
      const question = `Remove ${member.email} (${member.role}) from the workspace?`;
      if (!(await confirmedOrYes(question, options))) return print("Nobody removed.");
      await client.delete(`/api/v1/members/${segment(member.userId)}`);
      print(`Removed ${member.email}.`);
    });
}

function roleOf(value: string): string {
  if (!(roles as readonly string[]).includes(value))
    throw usageError(`Unknown role "${value}": use admin, approver or viewer.`);
  return value;
}

async function listMembers(client: ApiClient): Promise<MemberWire[]> {
  return (await client.get<{ members: MemberWire[] }>("/api/v1/members")).members;
}

async function findMember(client: ApiClient, ref: string): Promise<MemberWire> {
  const wanted = ref.toLowerCase();
  const member = (await listMembers(client)).find(
    (m) => m.userId === ref || m.email.toLowerCase() === wanted,
  );
  if (!member) throw new CliError(`There is no member "${ref}". See switchboard members list.`);
  return member;
}

import type { ReactNode } from "react";

export function Alert({
  tone = "error",
  title,
  children,
}: {
  tone?: "error" | "info";
  title?: string;
  children: ReactNode;
}) {
  const colors =
    tone === "error" ? "border-red-200 bg-red-50 text-red-800" : "border-sky-200 bg-sky-50 text-sky-800";
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-md border px-4 py-3 text-sm ${colors}`}
    >
      {title ? <p className="font-medium">{title}</p> : null}
      <div className={title ? "mt-1" : ""}>{children}</div>
    </div>
  );
}

/**
 * A form's own error: shown only when no field carries one, since field errors already say what is
 * wrong next to the input (the message then only repeats them).
 */
export function FormError({ message, fieldErrors }: { message?: string | null; fieldErrors: object }) {
  if (!message || Object.keys(fieldErrors).length > 0) return null;
  return (
    <div className="mt-3">
      <Alert>{message}</Alert>
    </div>
  );
}

import { z } from "zod";

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid email address." }));

export const newPasswordSchema = z
  .string({ error: "Choose a password." })
  .min(10, { error: "Use at least 10 characters." })
  .max(256, { error: "Use at most 256 characters." });

export const signInSchema = z.strictObject({
  email: emailSchema,
  password: z.string({ error: "Enter your password." }).min(1, { error: "Enter your password." }).max(256),
});

export const newAccountSchema = z.strictObject({
  name: z.string({ error: "Enter your name." }).trim().min(1, { error: "Enter your name." }).max(100),
  email: emailSchema,
  password: newPasswordSchema,
});
export type NewAccount = z.infer<typeof newAccountSchema>;

import { FieldErrors } from "@/components/ui/field";

type HttpReach = { allowedSchemes: string[]; allowLoopback: boolean; allowPrivate: boolean };

/** The URL schemes and address kinds HTTP servers may use: the same controls in the egress policy and the instance's floor. */
export function HttpReachChoices({ http, schemeErrors }: { http: HttpReach; schemeErrors?: string[] }) {
  return (
    <>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">URL schemes</legend>
        <div className="mt-1 flex gap-4 text-sm">
          {(["https", "http"] as const).map((scheme) => (
            <label key={scheme} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                name="allowedSchemes"
                value={scheme}
                defaultChecked={http.allowedSchemes.includes(scheme)}
              />
              {scheme}
            </label>
          ))}
        </div>
        <FieldErrors errors={schemeErrors} />
      </fieldset>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="allowLoopback" defaultChecked={http.allowLoopback} />
        Allow loopback addresses (this machine: 127.0.0.0/8, ::1)
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="allowPrivate" defaultChecked={http.allowPrivate} />
        Allow private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7)
      </label>
    </>
  );
}

#version 410 core
in vec3 vWorld;
flat in vec4 vSphere;
flat in vec4 vColor;

uniform mat4 uViewProj;
uniform vec3 uEye;
uniform vec3 uKey;
uniform vec3 uFill;

out vec4 outColor;

void main() {
	vec3 dir = normalize(vWorld - uEye);
	vec3 oc = uEye - vSphere.xyz;
	float r = vSphere.w;
	float b = dot(oc, dir);
	// closest approach of the ray to the centre, computed directly so that a
	// small sphere far away keeps its precision (no b² − c cancellation)
	vec3 q = oc - b * dir;
	float disc = r * r - dot(q, q);
	if (disc < 0.0) discard;
	vec3 rel = q - sqrt(disc) * dir; // hit point − centre
	vec3 p = vSphere.xyz + rel;
	vec4 clip = uViewProj * vec4(p, 1.0);
	gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
	vec3 n = rel / r;
	vec3 V = -dir;
	vec3 base = vColor.rgb;
	// same lighting as mesh.frag
	float hemi = 0.5 + 0.5 * n.z;
	vec3 amb = mix(vec3(0.16, 0.15, 0.14), vec3(0.34, 0.36, 0.40), hemi);
	float k = max(dot(n, uKey), 0.0);
	float fl = max(dot(n, uFill), 0.0);
	float h = max(dot(n, V), 0.0);
	vec3 H = normalize(uKey + V);
	float s = pow(max(dot(n, H), 0.0), 40.0);
	vec3 col = base * (amb + 0.70 * k + 0.22 * fl + 0.18 * h) + vec3(0.16 * s);
	outColor = vec4(col, vColor.a);
}

#version 410 core
// Force chains: a segment between two body centres with a constant on-screen
// width per instance (pixels), expanded like the arrow shaft.
layout(location = 0) in vec2 aParam; // x: 0 start, 1 end; y: side −1..1
layout(location = 1) in vec3 iStart;
layout(location = 2) in vec3 iEnd;
layout(location = 3) in vec4 iColor;
layout(location = 4) in float iWidth; // full width in pixels

uniform mat4 uViewProj;
uniform vec2 uViewport;

flat out vec4 vColor;

void main() {
	vec4 c0 = uViewProj * vec4(iStart, 1.0);
	vec4 c1 = uViewProj * vec4(iEnd, 1.0);
	const float eps = 1e-6;
	vColor = iColor;
	if (c0.w < eps && c1.w < eps) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
	if (c0.w < eps) c0 = mix(c0, c1, (eps - c0.w) / (c1.w - c0.w));
	if (c1.w < eps) c1 = mix(c1, c0, (eps - c1.w) / (c0.w - c1.w));
	vec2 s0 = c0.xy / c0.w * 0.5 * uViewport;
	vec2 s1 = c1.xy / c1.w * 0.5 * uViewport;
	vec2 d = s1 - s0;
	float L = length(d);
	vec2 dir = L > 1e-4 ? d / L : vec2(1.0, 0.0);
	vec2 perp = vec2(-dir.y, dir.x);
	vec4 c = aParam.x < 0.5 ? c0 : c1;
	c.xy += perp * aParam.y * 0.5 * iWidth * 2.0 / uViewport * c.w;
	gl_Position = c;
}

#version 410 core
// Ground grid: one large quad at z = uZ around uCenter, generated from gl_VertexID.
uniform mat4 uViewProj;
uniform vec2 uCenter;
uniform float uHalf;
uniform float uZ;
out vec2 vXY;
void main() {
	vec2 c[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
	vXY = uCenter + c[gl_VertexID] * uHalf;
	gl_Position = uViewProj * vec4(vXY, uZ, 1.0);
}

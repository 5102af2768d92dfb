#version 410 core
// Impostor spheres: one quad per sphere, perpendicular to the eye→centre
// direction and just large enough to cover the silhouette; sphere.frag
// intersects the view ray with the sphere and writes its depth.
layout(location = 0) in vec2 aCorner;
layout(location = 1) in vec4 iSphere; // centre xyz, radius w
layout(location = 2) in vec4 iColor;

uniform mat4 uViewProj;
uniform vec3 uEye;
uniform vec3 uUp; // camera up (world)

out vec3 vWorld;
flat out vec4 vSphere;
flat out vec4 vColor;

void main() {
	vec3 c = iSphere.xyz;
	float r = iSphere.w;
	vec3 d = c - uEye;
	float L = length(d);
	vSphere = iSphere;
	vColor = iColor;
	if (!(L > 1.001 * r)) { // eye inside the sphere: not drawn
		vWorld = c;
		gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
		return;
	}
	vec3 f = d / L;
	vec3 right = cross(f, uUp);
	right = length(right) > 1e-6 ? normalize(right) : vec3(1.0, 0.0, 0.0);
	vec3 up = cross(right, f);
	// the silhouette cone (half angle asin(r/L)) meets the plane through c
	// in a circle of radius r·L/sqrt(L²−r²)
	float s = r * L / sqrt(L * L - r * r) * 1.02;
	vec3 p = c + (aCorner.x * right + aCorner.y * up) * s;
	vWorld = p;
	gl_Position = uViewProj * vec4(p, 1.0);
}
